package dev.capstan.applier.kustomize;

import dev.capstan.kustomize.worker.AnswerRoom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The heap the answers of all builds may hold at once, counted in KiB: an answer is read from its
 * worker only once there is room for it, and the room is given back when the answer has been turned
 * into objects. Two hostile builds at once cannot fill the heap between them.
 */
final class AnswerBudget implements AnswerRoom {
  private final int totalKib;
  private final Semaphore kib;

  AnswerBudget(long bytes) {
    this.totalKib = (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes >> 10));
    this.kib = new Semaphore(totalKib, true);
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

  private static int kibOf(long bytes) {
    return (int) Math.min(Integer.MAX_VALUE, (bytes + 1023) >> 10);
  }
}
