package dev.capstan.applier.kustomize;

import dev.capstan.kustomize.worker.AnswerRoom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The heap the answers of all builds may hold at once, counted in KiB: an answer is read from its
 * worker only once there is room for it and for the objects read from it ({@link #PARSED_FACTOR}
 * times its bytes), and the room is given back when the build's result is closed, after its apply.
 * Two hostile builds at once cannot fill the heap between them. Room is given first come, first
 * served (a fair semaphore): a large answer that waits is not passed by smaller ones that came
 * later, so one tenant's many builds cannot keep another's waiting.
 */
final class AnswerBudget implements AnswerRoom {
  /**
   * Heap bytes charged per byte of an answer: the answer itself and the objects read from it
   * (GenericKubernetesResource, Jackson's LinkedHashMaps, ArrayLists and Strings below it).
   * Measured with applier/bench/ParsedSizeBench.java (live heap after full collections, JDK 17,
   * compressed oops): 4.4 bytes per byte for CRDs (long descriptions), 8.0 for the Deployments,
   * Services, ConfigMaps and Secrets of the apply benchmarks, and up to 20.2 for what a tenant can
   * choose to make it largest, a list of empty maps (3 bytes of JSON, an empty LinkedHashMap of
   * about 56 bytes and a reference each; empty lists 17.6, one-letter strings 13.2). The largest,
   * and the answer's own bytes held while it is read, rounded up: a bound, not an average.
   */
  static final int PARSED_FACTOR = 22;

  private final int totalKib;
  private final Semaphore kib;

  AnswerBudget(long bytes) {
    this.totalKib = (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes >> 10));
    this.kib = new Semaphore(totalKib, true);
  }

  /** The heap an answer of {@code answerBytes} holds once read, as this budget counts it. */
  static long heldBytes(long answerBytes) {
    return answerBytes * PARSED_FACTOR;
  }

  @Override
  public boolean take(long bytes, long deadlineNanos) throws InterruptedException {
    int wanted = kibOf(bytes);
    if (wanted > totalKib) {
      return false;
    }
    return kib.tryAcquire(
        wanted, Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  @Override
  public void give(long bytes) {
    kib.release(kibOf(bytes));
  }

  /** Room not taken now (for tests). */
  long availableBytes() {
    return (long) kib.availablePermits() << 10;
  }

  long totalBytes() {
    return (long) totalKib << 10;
  }

  /** How many builds wait for room now (for tests). */
  int waiting() {
    return kib.getQueueLength();
  }

  private static int kibOf(long answerBytes) {
    return (int) Math.min(Integer.MAX_VALUE, (heldBytes(answerBytes) + 1023) >> 10);
  }
}
