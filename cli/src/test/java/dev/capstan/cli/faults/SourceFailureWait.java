package dev.capstan.cli.faults;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The wait the fault checks share for a source's fetch to fail clearly: its Ready condition {@code
 * False} with a message that says why, never a stack trace.
 */
final class SourceFailureWait {
  private static final Duration POLL = Duration.ofMillis(250);

  private SourceFailureWait() {}

  /**
   * Polls {@code ready} until it is {@code False} with a message {@code clear} accepts, running
   * {@code guard} (which may throw) on every poll first. Throws naming {@code what} if a message
   * reads as a stack trace, or with the last condition seen if none is clear within {@code atMost}.
   *
   * @param what the failing fetch, for messages ("the fetch onto a full disk")
   * @param kind the source's kind, for messages
   */
  static void await(
      String what,
      String kind,
      Duration atMost,
      Supplier<Optional<Condition>> ready,
      Predicate<String> clear,
      Runnable guard)
      throws InterruptedException {
    long end = System.nanoTime() + atMost.toNanos();
    Optional<Condition> seen = Optional.empty();
    while (System.nanoTime() < end) {
      guard.run();
      seen = ready.get();
      if (seen.isPresent() && "False".equals(seen.get().getStatus())) {
        String message = String.valueOf(seen.get().getMessage());
        if (readsAsStackTrace(message)) {
          throw new IllegalStateException(what + " failed with a stack trace: " + message);
        }
        if (clear.test(message)) {
          return;
        }
      }
      Thread.sleep(POLL.toMillis());
    }
    throw new IllegalStateException(
        what
            + " did not fail clearly within "
            + atMost.toSeconds()
            + " s; the "
            + kind
            + "'s Ready: "
            + seen.map(c -> c.getStatus() + " " + c.getReason() + ": " + c.getMessage())
                .orElse("none"));
  }

  /** Runs {@code guard} (which may throw) every poll until {@code endNanos} (of nanoTime). */
  static void guardUntil(long endNanos, Runnable guard) throws InterruptedException {
    while (System.nanoTime() < endNanos) {
      guard.run();
      Thread.sleep(
          Math.min(POLL.toMillis(), Math.max(1, (endNanos - System.nanoTime()) / 1_000_000)));
    }
  }

  /** Whether a status message is a Java stack trace or an exception's toString. */
  static boolean readsAsStackTrace(String message) {
    return message.contains("\tat ") || message.contains("Exception:");
  }
}
