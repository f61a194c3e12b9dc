package dev.capstan.cli.faults;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The engines' artifact stores, each on a small tmpfs of its own (mounted as root, as a pod's
 * size-limited emptyDir would be), and the one of the running engine filled up and freed again.
 */
final class ArtifactDisks implements AutoCloseable {
  private static final String FILLER = "disk-full-filler";
  private final long bytes;
  private final List<Path> mounted = new ArrayList<>();

  /** Disks of {@code bytes} each. */
  ArtifactDisks(long bytes) {
    this.bytes = bytes;
  }

  /**
   * Whether this process may mount a file system: only root may (in the test's own mount namespace
   * a user could too, but the engines must see the mounts the test makes).
   */
  static boolean mountable() {
    try {
      return Files.readAllLines(Path.of("/proc/self/status")).stream()
          .anyMatch(line -> line.matches("Uid:\\s+0\\s.*"));
    } catch (IOException e) {
      return false;
    }
  }

  /** Mounts a new tmpfs at {@code dir} (created), the next engine's storage path. */
  void mount(Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    run("mount", "-t", "tmpfs", "-o", "size=" + bytes + ",mode=0700", "tmpfs", dir.toString());
    mounted.add(dir);
  }

  /** Fills the last disk mounted until the file system refuses more; returns the bytes written. */
  long fill() throws IOException {
    Path filler = last().resolve(FILLER);
    byte[] block = new byte[64 * 1024];
    long written = 0;
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (written <= bytes) {
        out.write(block);
        written += block.length;
      }
    } catch (IOException full) {
      // expected: the disk is full
      return written;
    }
    throw new IllegalStateException(last() + " took more than its size: it is not the tmpfs");
  }

  /** Frees what {@link #fill} took. */
  void free() throws IOException {
    Files.deleteIfExists(last().resolve(FILLER));
  }

  private Path last() {
    if (mounted.isEmpty()) {
      throw new IllegalStateException("no artifact disk is mounted");
    }
    return mounted.get(mounted.size() - 1);
  }

  /** Unmounts every disk (lazily: an engine that is still stopping keeps its files open). */
  @Override
  public void close() throws IOException, InterruptedException {
    IOException first = null;
    for (Path dir : mounted) {
      try {
        run("umount", "-l", dir.toString());
      } catch (IOException e) {
        // the others are unmounted all the same: a mount left behind stays on the machine
        first = first == null ? e : first;
      }
    }
    mounted.clear();
    if (first != null) {
      throw first;
    }
  }

  private static void run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    if (!process.waitFor(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not end within 30 s");
    }
    String output = new String(process.getInputStream().readAllBytes()).trim();
    if (process.exitValue() != 0) {
      throw new IOException(
          String.join(" ", command) + " failed (" + process.exitValue() + "): " + output);
    }
  }
}
