package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Unpacks a tar+gzip layer into an empty directory, reading it as hostile input: the bytes
 * decompressed and written (those of the entries left out too), the entries, the depth, each header
 * and the time are bounded; an absolute path or one with {@code ..} fails the layer; links
 * (symbolic or hard) and special files are left out, as Flux leaves them out, so nothing in the
 * tree can point outside it.
 */
public final class LayerUnpacker {
  private static final Logger LOG = LoggerFactory.getLogger(LayerUnpacker.class);

  /** Directory levels a path may have. */
  static final int MAX_DEPTH = 256;

  static final int MAX_NAME = 4096;

  /**
   * What a layer may unpack to.
   *
   * @param bytes bytes of all files together
   * @param entries files, directories and the links left out
   */
  public record Limits(long bytes, int entries) {}

  private final Path target;
  private final Limits limits;
  private long written;
  private int entries;

  private LayerUnpacker(Path target, Limits limits) {
    this.target = target;
    this.limits = limits;
  }

  /**
   * Unpacks {@code layer} (a tar+gzip file) into the empty directory {@code target}, with no
   * deadline.
   *
   * @throws SourceException {@link FailureReason#OCI_LAYER_FAILED} for a layer that is not tar+gzip
   *     or holds a path that leaves the tree or a header past its bound, {@link
   *     FailureReason#SIZE_LIMIT_EXCEEDED} past a limit
   */
  public static void unpack(Path layer, Path target, Limits limits) throws IOException {
    unpack(layer, target, limits, Clock.systemUTC(), Instant.MAX);
  }

  /**
   * Unpacks {@code layer} as {@link #unpack(Path, Path, Limits)} does, failing with {@link
   * FailureReason#OCI_PULL_FAILED} once {@code deadline} has passed.
   */
  public static void unpack(Path layer, Path target, Limits limits, Clock clock, Instant deadline)
      throws IOException {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(layer))) {
      unpack(in, target, limits, clock, deadline);
    }
  }

  static void unpack(InputStream gzip, Path target, Limits limits, Clock clock, Instant deadline)
      throws IOException {
    LayerUnpacker unpacker = new LayerUnpacker(target, limits);
    try (TarArchiveInputStream tar =
        new HeaderBoundedTar(
            new MeteredStream(
                new GZIPInputStream(gzip, 65536),
                limits.bytes(),
                HeaderBoundedTar.MAX_ENTRY_HEADER_BYTES,
                clock,
                deadline))) {
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        unpacker.entry(tar, entry);
      }
    } catch (ZipException e) {
      throw layerFailed("the layer is not gzip-compressed");
    } catch (FileSystemException e) {
      throw e; // the store's disk, not the layer
    } catch (IOException e) {
      throw layerFailed("the layer is not a readable tar archive");
    }
  }

  private void entry(TarArchiveInputStream tar, TarArchiveEntry entry) throws IOException {
    String name = entry.getName();
    if (++entries > limits.entries()) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the layer has more than " + limits.entries() + " entries");
    }
    String path = relative(name);
    if (entry.getSize() > limits.bytes() - written) {
      throw tooLarge(path);
    }
    Path file = target.resolve(path);
    if (!path.isEmpty() && entry.isDirectory()) {
      makeDirectories(file);
    } else if (!path.isEmpty() && isRegularFile(entry)) {
      makeDirectories(file.getParent());
      write(tar, file, path, (entry.getMode() & 0100) != 0);
    } else {
      LOG.debug("left out {} of the layer: not a file or directory", Safe.text(path));
      // Read here, not skipped by the next header's read: it counts as unpacked, not as a header.
      copy(tar, OutputStream.nullOutputStream(), path);
    }
  }

  /** Commons Compress calls anything not a directory a file, links too: the flag decides. */
  private static boolean isRegularFile(TarArchiveEntry entry) {
    byte flag = entry.getLinkFlag();
    return flag == TarConstants.LF_NORMAL
        || flag == TarConstants.LF_OLDNORM
        || flag == TarConstants.LF_CONTIG;
  }

  /** The entry's path relative to the tree; fails for one that would leave it. */
  static String relative(String name) {
    if (name.length() > MAX_NAME || name.indexOf('\0') >= 0) {
      throw layerFailed("an entry of the layer has an invalid name");
    }
    String path = name.replace('\\', '/');
    if (path.startsWith("/")) {
      throw layerFailed("the layer holds an absolute path ('" + Safe.text(name) + "')");
    }
    StringBuilder clean = new StringBuilder();
    int depth = 0;
    for (String part : path.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        throw layerFailed(
            "the layer holds a path that leaves the artifact ('" + Safe.text(name) + "')");
      }
      if (++depth > MAX_DEPTH) {
        throw new SourceException(
            FailureReason.SIZE_LIMIT_EXCEEDED,
            "the layer nests directories more than " + MAX_DEPTH + " levels deep");
      }
      if (clean.length() > 0) {
        clean.append('/');
      }
      clean.append(part);
    }
    return clean.toString();
  }

  private void makeDirectories(Path dir) throws IOException {
    if (dir == null || dir.equals(target)) {
      return;
    }
    if (Files.isRegularFile(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw layerFailed("the layer holds a file and a directory at the same path");
    }
    Files.createDirectories(dir);
  }

  private void write(InputStream tar, Path file, String path, boolean executable)
      throws IOException {
    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
      throw layerFailed("the layer holds a file and a directory at the same path");
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      copy(tar, out, path);
    }
    Files.setPosixFilePermissions(
        file, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
  }

  /** Copies the entry's data, counted against the limit (a sparse entry's holes too). */
  private void copy(InputStream tar, OutputStream out, String path) throws IOException {
    byte[] buffer = new byte[65536];
    int n;
    while ((n = tar.read(buffer)) > 0) {
      written += n;
      if (written > limits.bytes()) {
        throw tooLarge(path);
      }
      out.write(buffer, 0, n);
    }
  }

  private SourceException tooLarge(String path) {
    return new SourceException(
        FailureReason.SIZE_LIMIT_EXCEEDED,
        "the layer unpacks to more than the size limit of "
            + limits.bytes()
            + " bytes (at '"
            + Safe.text(path)
            + "')");
  }

  private static SourceException layerFailed(String message) {
    return new SourceException(FailureReason.OCI_LAYER_FAILED, message);
  }
}
