package dev.capstan.source.core.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Content-addressed storage of filtered trees under one root directory.
 *
 * <pre>
 * root/artifacts/sha256/&lt;hex&gt;/   one immutable tree per digest
 * root/sources/&lt;id&gt;/state         what each source last published
 * root/sources/&lt;id&gt;/...          what the kind of source keeps of its own (Git: git/)
 * root/tmp/                        trees being written
 * </pre>
 *
 * A tree is written under tmp/ and renamed into place, so a reader sees either the previous
 * artifact or the complete new one. Publishing and garbage collection hold one lock, so a tree just
 * renamed into place is never collected before its state names it. Every kind of source (Git, OCI,
 * external artifacts) publishes into one instance per root: the lock is the instance's.
 */
public final class ArtifactStore {

  private static final Logger LOG = LoggerFactory.getLogger(ArtifactStore.class);

  /** A tree still being written after this long was left behind by a stopped process. */
  public static final Duration ABANDONED_AFTER = Duration.ofHours(1);

  private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");

  private final Path root;
  private final Clock clock;
  private final Object publishLock = new Object();

  public ArtifactStore(Path root, Clock clock) {
    this.root = root.toAbsolutePath().normalize();
    this.clock = clock;
  }

  public Path sourceDir(String key) {
    return root.resolve("sources").resolve(dirName(key));
  }

  public Optional<StoredState> state(String key) {
    return StoredState.read(sourceDir(key).resolve("state"));
  }

  public Path artifactsRoot() {
    return root.resolve("artifacts");
  }

  public Path artifactDir(String digest) {
    return artifactsRoot().resolve("sha256").resolve(hexOf(digest));
  }

  public Optional<StoredArtifact> artifactOf(StoredState state) {
    Path dir = artifactDir(state.digest());
    return Files.isDirectory(dir)
        ? Optional.of(
            new StoredArtifact(
                state.revision(),
                state.digest(),
                dir,
                state.lastUpdateTime(),
                state.verified(),
                state.included(),
                state.metadata()))
        : Optional.empty();
  }

  /** A new empty directory to export a tree into, on the same file system as the artifacts. */
  public Path newTempDir() throws IOException {
    Path tmp = root.resolve("tmp");
    Files.createDirectories(tmp);
    return Files.createDirectory(tmp.resolve(UUID.randomUUID().toString()));
  }

  /**
   * Moves the exported tree into place (or drops it when that digest is already stored), records
   * the new state, and collects artifacts no source refers to any more.
   */
  public StoredArtifact publish(String key, Path exported, StoredState state) throws IOException {
    Path target = artifactDir(state.digest());
    synchronized (publishLock) {
      Files.createDirectories(target.getParent());
      if (Files.isDirectory(target)) {
        deleteTree(exported);
      } else {
        Files.move(exported, target, StandardCopyOption.ATOMIC_MOVE);
      }
      Files.createDirectories(sourceDir(key));
      state.write(sourceDir(key).resolve("state"));
      collectGarbage();
    }
    return new StoredArtifact(
        state.revision(),
        state.digest(),
        target,
        state.lastUpdateTime(),
        state.verified(),
        state.included(),
        state.metadata());
  }

  /**
   * Forgets a source that no longer exists: its state and what its kind kept beside it, and its
   * artifacts unless another source names the same digest.
   */
  public void forget(String key) throws IOException {
    synchronized (publishLock) {
      deleteTree(sourceDir(key));
      collectGarbage();
    }
  }

  /** Deletes artifacts that are neither the current nor the previous one of any source. */
  void collectGarbage() throws IOException {
    synchronized (publishLock) {
      Set<String> live = new HashSet<>();
      Path sources = root.resolve("sources");
      if (Files.isDirectory(sources)) {
        try (Stream<Path> dirs = Files.list(sources)) {
          dirs.map(d -> StoredState.read(d.resolve("state")))
              .flatMap(Optional::stream)
              .forEach(
                  s -> {
                    live.add(hexOf(s.digest()));
                    s.previous().ifPresent(p -> live.add(hexOf(p)));
                  });
        }
      }
      deleteAbandonedTempDirs();
      Path artifacts = root.resolve("artifacts").resolve("sha256");
      if (!Files.isDirectory(artifacts)) {
        return;
      }
      try (Stream<Path> dirs = Files.list(artifacts)) {
        for (Path dir : dirs.toList()) {
          if (!live.contains(dir.getFileName().toString())) {
            LOG.debug("collecting unreferenced artifact {}", dir.getFileName());
            deleteTree(dir);
          }
        }
      }
    }
  }

  private void deleteAbandonedTempDirs() throws IOException {
    Path tmp = root.resolve("tmp");
    if (!Files.isDirectory(tmp)) {
      return;
    }
    Instant cutoff = clock.instant().minus(ABANDONED_AFTER);
    try (Stream<Path> dirs = Files.list(tmp)) {
      for (Path dir : dirs.toList()) {
        if (Files.getLastModifiedTime(dir).toInstant().isBefore(cutoff)) {
          LOG.debug("deleting abandoned temporary tree {}", dir.getFileName());
          deleteTree(dir);
        }
      }
    }
  }

  /** Deletes a directory tree without following symlinks out of it. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.deleteIfExists(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            Files.deleteIfExists(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  public static void deleteQuietly(Path dir) {
    try {
      deleteTree(dir);
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("could not delete {}: {}", dir, e.toString());
    }
  }

  /**
   * Whether {@code digest} names a tree this store could hold: {@code sha256:} and 64 hex digits.
   */
  public static boolean isDigest(String digest) {
    return digest != null && DIGEST.matcher(digest).matches();
  }

  private static String hexOf(String digest) {
    // Checked in full: a digest read from an object's status must not name another directory.
    if (!isDigest(digest)) {
      throw new IllegalArgumentException("not a sha256 digest");
    }
    return digest.substring("sha256:".length());
  }

  /** A readable, collision-free directory name for a source key such as {@code ns/name}. */
  public static String dirName(String key) {
    String readable = key.replaceAll("[^A-Za-z0-9._-]", "_");
    if (readable.length() > 60) {
      readable = readable.substring(0, 60);
    }
    return readable + "-" + sha256Hex(key).substring(0, 12);
  }

  public static String sha256Hex(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
