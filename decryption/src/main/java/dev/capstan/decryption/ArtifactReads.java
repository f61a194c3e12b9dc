package dev.capstan.decryption;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Reads the artifact's files for decryption, bounded before anything is parsed: every file has a
 * bound of its own (what it is for decides it) and all files read through one instance share a
 * total. The artifact is hostile: a kustomization with one long scalar must not fill the heap
 * before the build's own bounds apply. A file past a bound is refused, named by its path in the
 * artifact.
 */
final class ArtifactReads {
  /**
   * A kustomization file (or a generator's configuration): far larger than any written by hand,
   * with room for inline patches. Small enough that parsing the worst one (a single line) takes
   * milliseconds.
   */
  static final int MAX_KUSTOMIZATION_BYTES = 256 << 10;

  /** Everything one build reads to find and decrypt its generator inputs. */
  static final long MAX_TOTAL_BYTES = 16L << 20;

  private final Path root;
  private final long maxTotal;
  private long total;

  ArtifactReads(Path root) {
    this(root, MAX_TOTAL_BYTES);
  }

  ArtifactReads(Path root, long maxTotal) {
    this.root = root;
    this.maxTotal = maxTotal;
  }

  /**
   * The bytes of {@code file}, at most {@code maxBytes}, counted to the total.
   *
   * @param what what the file is, for the message: "a kustomization file"
   * @throws DecryptionException naming the file when it is larger than {@code maxBytes} or the
   *     total would pass its bound
   */
  byte[] read(Path file, int maxBytes, String what) throws IOException {
    // A file that reports its size honestly is refused before it is opened; one that grows while
    // it is read is cut at one byte past the bound and refused all the same.
    long size = Files.size(file);
    check(file, size, maxBytes, what);
    byte[] content;
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      content = in.readNBytes(maxBytes + 1);
    }
    check(file, content.length, maxBytes, what);
    total += content.length;
    return content;
  }

  private void check(Path file, long size, int maxBytes, String what) {
    String name = root.relativize(file).toString();
    if (size > maxBytes) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "file '"
              + name
              + "' is larger than "
              + describe(maxBytes)
              + ", the most "
              + what
              + " may be");
    }
    if (total + size > maxTotal) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "the kustomizations and generator inputs read for decryption pass "
              + describe(maxTotal)
              + " at file '"
              + name
              + "'");
    }
  }

  private static String describe(long bytes) {
    if (bytes % (1 << 20) == 0) {
      return (bytes >> 20) + " MiB";
    }
    return bytes % (1 << 10) == 0 ? (bytes >> 10) + " KiB" : bytes + " bytes";
  }
}
