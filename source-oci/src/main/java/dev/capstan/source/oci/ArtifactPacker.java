package dev.capstan.source.oci;

import dev.capstan.source.core.store.TreeFilter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.Date;
import java.util.HexFormat;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Packs a directory as Flux packs an artifact's layer: a tar+gzip of its files and directories in
 * path order, with owners, names and times zeroed so the same tree packs to the same bytes; links
 * and special files are left out, and so is what the ignore rules name.
 */
final class ArtifactPacker {
  /** Flux's default exclusions when pushing (VCS files, binary and archive extensions). */
  static final String DEFAULT_IGNORE = TreeFilter.PUSH_DEFAULTS;

  /**
   * Left out whatever the rules say, after them so that no rule of the caller's brings it back: a
   * Git directory (or a worktree's {@code .git} file) at any depth. Flux's {@code --ignore-paths}
   * replaces its defaults, {@code .git/} with them, and a repository's history and remotes (with
   * any credentials in their URLs) have no place in an artifact that others pull.
   */
  static final String ALWAYS_IGNORED = ".git";

  private ArtifactPacker() {}

  /**
   * The packed layer.
   *
   * @param diffId the digest of the uncompressed tar (the config's rootfs names it)
   */
  record Packed(Path file, String digest, long size, String diffId) {}

  /**
   * Packs what {@code ignore} (gitignore lines) and {@link #ALWAYS_IGNORED} leave of {@code dir}.
   */
  static Packed pack(Path dir, String ignore, Path into) throws IOException {
    MessageDigest compressed = Registry.sha256();
    MessageDigest uncompressed = Registry.sha256();
    try (OutputStream file = Files.newOutputStream(into);
        DigestOutputStream hashed = new DigestOutputStream(file, compressed);
        GZIPOutputStream gzip = new GZIPOutputStream(hashed, 65536);
        DigestOutputStream plain = new DigestOutputStream(gzip, uncompressed);
        TarArchiveOutputStream tar = new TarArchiveOutputStream(plain)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
      for (String path : TreeFilter.kept(dir, ignore + "\n" + ALWAYS_IGNORED)) {
        add(tar, dir.resolve(path), path);
      }
    }
    return new Packed(
        into,
        "sha256:" + HexFormat.of().formatHex(compressed.digest()),
        Files.size(into),
        "sha256:" + HexFormat.of().formatHex(uncompressed.digest()));
  }

  private static void add(TarArchiveOutputStream tar, Path file, String path) throws IOException {
    boolean dir = Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS);
    TarArchiveEntry entry = new TarArchiveEntry(dir ? path + "/" : path);
    entry.setModTime(new Date(0));
    entry.setUserId(0);
    entry.setGroupId(0);
    entry.setUserName("");
    entry.setGroupName("");
    boolean executable =
        Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)
            .contains(PosixFilePermission.OWNER_EXECUTE);
    entry.setMode(dir ? 040755 : executable ? 0100755 : 0100644);
    if (!dir) {
      entry.setSize(Files.size(file));
    }
    tar.putArchiveEntry(entry);
    if (!dir) {
      try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
        in.transferTo(tar);
      }
    }
    tar.closeArchiveEntry();
  }
}
