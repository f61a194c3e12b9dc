package dev.capstan.applier.kustomize;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.Objects;

/**
 * What builds may use. {@code timeout} and {@code maxMemoryBytes} bound one build, which runs in a
 * worker process of its own (the whole process's memory); a build past either ends with its worker.
 * {@code workers} builds run at once, each in a worker. {@code maxOutputBytes} bounds what one
 * build may return to the JVM, and {@code answerRoomBytes} the heap the results of all builds may
 * hold at once, from their answer's arrival to the end of their apply: an answer is charged {@link
 * AnswerBudget#PARSED_FACTOR} times its bytes, for the objects read from it, and waits for room,
 * first come first served, within its build's time. {@code resultCacheBytes} bounds the answers
 * kept for unchanged inputs.
 */
@RecordBuilder
public record BuildLimits(
    Duration timeout,
    long maxMemoryBytes,
    int workers,
    long maxOutputBytes,
    long answerRoomBytes,
    long resultCacheBytes)
    implements BuildLimitsBuilder.With {

  private static final long MIB = 1024 * 1024;

  /** The least memory a worker runs with: the Go runtime and kustomize's schema need about 50. */
  public static final long MIN_MEMORY_BYTES = 64 * MIB;

  public BuildLimits {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("build timeout must be positive");
    }
    if (maxMemoryBytes < MIN_MEMORY_BYTES) {
      throw new IllegalArgumentException("a build needs at least 64 MiB of memory");
    }
    if (workers < 1) {
      throw new IllegalArgumentException("at least one build worker is needed");
    }
    if (answerRoomBytes < 1 || maxOutputBytes < 1) {
      throw new IllegalArgumentException("builds need room for their output");
    }
    if (AnswerBudget.heldBytes(maxOutputBytes) > answerRoomBytes) {
      throw new IllegalArgumentException(
          "the room for build results must hold the objects of the largest output");
    }
  }

  /**
   * The engine's: 30 s and 1 GiB a build (what native kustomize needs for the largest public
   * repositories, such as Argo CD's CRDs, with room to spare), {@code workers} at once; the results
   * of all builds held at once, objects read and charged as {@link AnswerBudget} charges them, half
   * the JVM's maximum heap (the other half is the engine's caches and the apply's own copies); one
   * answer at most what fits in that room alone, or 256 MiB; 32 MiB of kept answers.
   */
  public static BuildLimits engine(int workers) {
    long room = Runtime.getRuntime().maxMemory() / 2;
    return new BuildLimits(
        Duration.ofSeconds(30),
        1024 * MIB,
        workers,
        Math.min(room / AnswerBudget.PARSED_FACTOR, 256 * MIB),
        room,
        32 * MIB);
  }

  /**
   * How many chart renders run at once, each in a chart worker: half the build workers, at least
   * one. A chart worker holds about four times a build worker's memory (45 MiB against 10), and a
   * render is as busy on a core as the engine's own apply and health reads: on two cores, 100
   * HelmReleases were Ready no sooner with a second chart worker (28.5 s against 28.2 s with one).
   */
  public int chartWorkers() {
    return Math.max(1, workers / 2);
  }

  /** The default number of workers: one per core, at most four. */
  public static int defaultWorkers() {
    return Math.min(4, Runtime.getRuntime().availableProcessors());
  }

  /**
   * One build of the user's own files, nothing kept: the command line. Its output may be 1 GiB,
   * with the room its objects take (the command's own heap bounds it).
   */
  public static BuildLimits oneShot() {
    return new BuildLimits(
        Duration.ofMinutes(2), 1024 * MIB, 1, 1024 * MIB, AnswerBudget.heldBytes(1024 * MIB), 0);
  }

  /**
   * These limits with {@code bytes} of room for the results of all builds at once; one answer at
   * most what fits in it alone.
   */
  public BuildLimits withAnswerRoomBytes(long bytes) {
    return BuildLimitsBuilder.builder(this)
        .maxOutputBytes(Math.min(maxOutputBytes, bytes / AnswerBudget.PARSED_FACTOR))
        .answerRoomBytes(bytes)
        .build();
  }
}
