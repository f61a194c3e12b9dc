package dev.capstan.applier.cli;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded pool a command hands to the applier; daemon threads so a failure never hangs exit.
 */
final class WorkerPool {

  private WorkerPool() {}

  static ExecutorService of(int size) {
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
