package dev.capstan.applier.build;

import dev.capstan.kustomize.wasm.KustomizeInstance;
import io.roastedroot.zerofs.Configuration;
import io.roastedroot.zerofs.ZeroFs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.Map;

/**
 * The files of an artifact copied into an in-memory file system: all that the kustomize module can
 * see. Every path and symbolic link resolves inside this copy, so no name in a kustomization can
 * reach a file outside the artifact, by construction. Symbolic links are left out, as Flux leaves
 * them out of its artifacts (so a build sees what Flux's build sees), and so are {@code .git}
 * directories. Shared by the builds of one artifact; closed when the last lease ends after
 * eviction.
 */
final class ArtifactSnapshot {
  /** Where the module sees the artifact. */
  static final String ROOT = KustomizeInstance.ARTIFACT_ROOT;

  /** Files, directories and links a snapshot may hold. */
  private static final int MAX_ENTRIES = 100_000;

  private final FileSystem fileSystem;
  private final long bytes;

  /** Whether some files are decrypted inputs: then nothing the build prints may be logged. */
  private final boolean holdsDecrypted;

  private int leases;
  private boolean retired;

  private ArtifactSnapshot(FileSystem fileSystem, long bytes, boolean holdsDecrypted) {
    this.fileSystem = fileSystem;
    this.bytes = bytes;
    this.holdsDecrypted = holdsDecrypted;
  }

  /**
   * Copies the tree below {@code source}; symbolic links are neither followed nor copied.
   *
   * @throws BuildException when the tree is larger than {@code maxBytes} or cannot be read
   */
  static ArtifactSnapshot copyOf(Path source, long maxBytes) throws BuildException {
    FileSystem memory = newFileSystem();
    try {
      Path real = source.toRealPath();
      Copier copier = new Copier(real, memory.getPath(ROOT), maxBytes);
      Files.walkFileTree(real, EnumSet.noneOf(FileVisitOption.class), Integer.MAX_VALUE, copier);
      return new ArtifactSnapshot(memory, copier.bytes, false);
    } catch (IOException | UncheckedIOException e) {
      closeQuietly(memory);
      throw new BuildException(
          BuildErrorKind.ARTIFACT, "the artifact cannot be read: " + reason(e));
    } catch (BuildException e) {
      closeQuietly(memory);
      throw e;
    }
  }

  /**
   * An in-memory file system with the attributes WASI reads ({@code unix:*}), in blocks of 1 KiB:
   * manifests are small, and the default 8 KiB blocks would hold mostly nothing.
   */
  static FileSystem newFileSystem() {
    return ZeroFs.newFileSystem(
        Configuration.unix().toBuilder()
            .setAttributeViews("basic", "owner", "posix", "unix")
            .setBlockSize(1024)
            .setMaxCacheSize(0)
            .build());
  }

  /**
   * A copy of this snapshot in which the given files (paths relative to the artifact's root, in the
   * tree already) have other content: decrypted inputs a build must see and nothing else may. The
   * copy is never cached; it is closed with its lease.
   */
  ArtifactSnapshot withReplaced(Map<String, byte[]> files) throws BuildException {
    FileSystem memory = newFileSystem();
    try {
      Path from = root();
      Path to = memory.getPath(ROOT);
      try (var paths = Files.walk(from)) {
        for (Path path : (Iterable<Path>) paths::iterator) {
          Path target = to;
          for (Path part : from.relativize(path)) {
            target = target.resolve(part.toString());
          }
          if (Files.isDirectory(path)) {
            Files.createDirectories(target);
          } else {
            Files.write(target, Files.readAllBytes(path));
          }
        }
      }
      for (var file : files.entrySet()) {
        Path target = to.resolve(file.getKey()).normalize();
        if (!target.startsWith(to) || !Files.isRegularFile(target)) {
          throw new BuildException(
              BuildErrorKind.ARTIFACT,
              "a replaced file is not a file of the artifact: " + file.getKey());
        }
        Files.write(target, file.getValue());
      }
      ArtifactSnapshot copy = new ArtifactSnapshot(memory, bytes, !files.isEmpty());
      copy.lease();
      copy.retire();
      return copy;
    } catch (IOException | UncheckedIOException e) {
      closeQuietly(memory);
      throw new BuildException(
          BuildErrorKind.ARTIFACT, "the artifact cannot be read: " + reason(e));
    } catch (BuildException e) {
      closeQuietly(memory);
      throw e;
    }
  }

  Path root() {
    return fileSystem.getPath(ROOT);
  }

  boolean holdsDecrypted() {
    return holdsDecrypted;
  }

  long bytes() {
    return bytes;
  }

  synchronized void lease() {
    leases++;
  }

  /** Ends a lease; the snapshot is closed once it is retired and no build uses it. */
  synchronized void release() {
    leases--;
    closeIfUnused();
  }

  /** No new leases will be taken (evicted from the cache, or never cached). */
  synchronized void retire() {
    retired = true;
    closeIfUnused();
  }

  private void closeIfUnused() {
    if (retired && leases == 0) {
      closeQuietly(fileSystem);
    }
  }

  private static void closeQuietly(FileSystem fs) {
    try {
      fs.close();
    } catch (IOException ignored) {
      // an in-memory file system has nothing to flush
    }
  }

  private static String reason(Exception e) {
    Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** Copies a tree, counting bytes against the limit. */
  private static final class Copier extends SimpleFileVisitor<Path> {
    private final Path source;
    private final Path target;
    private final long maxBytes;
    long bytes;
    private int entries;

    Copier(Path source, Path target, long maxBytes) {
      this.source = source;
      this.target = target;
      this.maxBytes = maxBytes;
    }

    private Path mirror(Path path) {
      Path result = target;
      for (Path part : source.relativize(path)) {
        result = result.resolve(part.toString());
      }
      return result;
    }

    private void count() {
      if (++entries > MAX_ENTRIES) {
        throw new BuildException(
            BuildErrorKind.ARTIFACT,
            "the artifact holds more than "
                + MAX_ENTRIES
                + " files and directories, the most a build reads into memory");
      }
    }

    @Override
    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
        throws IOException {
      if (!dir.equals(source) && dir.getFileName().toString().equals(".git")) {
        return FileVisitResult.SKIP_SUBTREE;
      }
      count();
      Files.createDirectories(mirror(dir));
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
      count();
      if (attrs.isRegularFile()) {
        bytes += attrs.size();
        if (bytes > maxBytes) {
          throw new BuildException(
              BuildErrorKind.ARTIFACT,
              "the artifact holds more than "
                  + (maxBytes >> 20)
                  + " MiB of files, the most a build reads into memory");
        }
        Files.write(mirror(file), Files.readAllBytes(file));
      }
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
      if (file.equals(source)) {
        throw exc;
      }
      return FileVisitResult.CONTINUE; // unreadable entries are simply not there for the build
    }
  }
}
