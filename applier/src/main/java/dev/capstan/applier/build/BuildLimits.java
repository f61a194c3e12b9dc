package dev.capstan.applier.build;

import java.time.Duration;
import java.util.Objects;

/**
 * What a build may use. {@code timeout} and {@code maxMemoryBytes} bound one build (its linear
 * memory); a build past either is stopped and its instance thrown away. {@code instances} builds
 * run at once, each in a warm instance of its own; an instance whose memory grew past {@code
 * retainMemoryBytes} is not kept for the next build. {@code maxArtifactBytes} bounds the files a
 * build reads into memory; {@code snapshotCacheBytes} and {@code resultCacheBytes} bound what is
 * kept between builds (artifact copies; results of unchanged inputs).
 */
public record BuildLimits(
    Duration timeout,
    long maxMemoryBytes,
    int instances,
    long retainMemoryBytes,
    long maxArtifactBytes,
    long snapshotCacheBytes,
    long resultCacheBytes) {

  private static final long MIB = 1024 * 1024;

  public BuildLimits {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("build timeout must be positive");
    }
    if (maxMemoryBytes < 64 * MIB) {
      throw new IllegalArgumentException("a build needs at least 64 MiB of memory");
    }
    if (instances < 1) {
      throw new IllegalArgumentException("at least one build instance is needed");
    }
  }

  /** 30 s and 256 MiB a build, {@code instances} at once, caches for a long-running engine. */
  public static BuildLimits engine(int instances) {
    return new BuildLimits(
        Duration.ofSeconds(30), 256 * MIB, instances, 96 * MIB, 128 * MIB, 64 * MIB, 32 * MIB);
  }

  /**
   * One build, nothing kept: the command line, which builds its user's own files. Five minutes: a
   * new JVM builds a few dozen objects a second before the build's code is compiled, so 30 s (the
   * engine's bound, for warm instances) would refuse a directory of a thousand objects.
   */
  public static BuildLimits oneShot() {
    return new BuildLimits(Duration.ofMinutes(5), 256 * MIB, 1, 256 * MIB, 512 * MIB, 0, 0);
  }

  public BuildLimits withTimeout(Duration value) {
    return new BuildLimits(
        value,
        maxMemoryBytes,
        instances,
        retainMemoryBytes,
        maxArtifactBytes,
        snapshotCacheBytes,
        resultCacheBytes);
  }

  public BuildLimits withMaxMemoryBytes(long value) {
    return new BuildLimits(
        timeout,
        value,
        instances,
        Math.min(retainMemoryBytes, value),
        maxArtifactBytes,
        snapshotCacheBytes,
        resultCacheBytes);
  }
}
