package dev.capstan.cli.faults;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/** What a user must see while the artifact store is full: a fetch failed, saying why. */
final class DiskFullCheck {
  private DiskFullCheck() {}

  /**
   * Waits until the GitRepository is {@code Ready=False} with a message naming the full disk;
   * throws with the last condition seen if it is not within {@code atMost}, or if the message is a
   * stack trace.
   */
  static void awaitClearFailure(FaultCluster cluster, Duration atMost) throws InterruptedException {
    long end = System.nanoTime() + atMost.toNanos();
    Optional<Condition> ready = Optional.empty();
    while (System.nanoTime() < end) {
      ready = cluster.sourceReady();
      if (ready.isPresent() && "False".equals(ready.get().getStatus())) {
        String message = String.valueOf(ready.get().getMessage());
        if (message.contains("\tat ") || message.contains("Exception:")) {
          throw new IllegalStateException(
              "the full disk's fetch failure reads as a stack trace: " + message);
        }
        if (namesFullDisk(message)) {
          return;
        }
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(
        "the fetch onto a full disk did not fail naming it within "
            + atMost.toSeconds()
            + " s; the GitRepository's Ready: "
            + ready
                .map(c -> c.getStatus() + " " + c.getReason() + ": " + c.getMessage())
                .orElse("none"));
  }

  static boolean namesFullDisk(String message) {
    String lower = message.toLowerCase(Locale.ROOT);
    return lower.contains("no space left") || lower.contains("disk is full");
  }
}
