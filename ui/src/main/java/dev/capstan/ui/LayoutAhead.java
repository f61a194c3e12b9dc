package dev.capstan.ui;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lays the graph out again as soon as the Kustomizations change, on a thread of its own, so that
 * the graph page finds the layout ready instead of waiting for it. Changes that arrive while a
 * layout runs are folded into one more run.
 */
final class LayoutAhead {
  private final Runnable layout;
  private final AtomicBoolean wanted = new AtomicBoolean();
  private final AtomicBoolean running = new AtomicBoolean();

  LayoutAhead(Runnable layout) {
    this.layout = layout;
  }

  void changed() {
    wanted.set(true);
    if (running.compareAndSet(false, true)) {
      Thread worker = new Thread(this::drain, "capstan-ui-layout");
      worker.setDaemon(true);
      worker.start();
    }
  }

  private void drain() {
    try {
      while (wanted.getAndSet(false)) {
        try {
          Thread.sleep(100);
          layout.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } catch (RuntimeException e) {
          // The page lays the graph out itself when it asks, and reports what fails there.
        }
      }
    } finally {
      running.set(false);
      if (wanted.get()) {
        changed();
      }
    }
  }
}
