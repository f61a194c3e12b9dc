package dev.capstan.cli.apply;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

/**
 * The bounded pool a command hands to the applier; daemon threads so a failure never hangs exit.
 */
public final class WorkerPool {

  private WorkerPool() {}

  /** Runs {@code work} with a pool of {@code size} threads, stopped when it returns. */
  public static int run(int size, ToIntFunction<ExecutorService> work) {
    ExecutorService pool = of(size);
    try {
      return work.applyAsInt(pool);
    } finally {
      pool.shutdownNow();
    }
  }

  private static ExecutorService of(int size) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(
        Math.max(1, size),
        r -> {
          Thread t = new Thread(r, "capstan-apply-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }
}
