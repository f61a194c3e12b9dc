package dev.capstan.cli.faults;

import java.time.Duration;
import java.util.Locale;

/** What a user must see while the artifact store is full: a fetch failed, saying why. */
final class DiskFullCheck {
  private DiskFullCheck() {}

  /**
   * Waits until the GitRepository is {@code Ready=False} with a message naming the full disk;
   * throws with the last condition seen if it is not within {@code atMost}, or if the message is a
   * stack trace.
   */
  static void awaitClearFailure(FaultCluster cluster, Duration atMost) throws InterruptedException {
    SourceFailureWait.await(
        "the fetch onto a full disk",
        "GitRepository",
        atMost,
        cluster::sourceReady,
        DiskFullCheck::namesFullDisk,
        () -> {});
  }

  static boolean namesFullDisk(String message) {
    String lower = message.toLowerCase(Locale.ROOT);
    return lower.contains("no space left") || lower.contains("disk is full");
  }
}
