package dev.capstan.engine.shard;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The rounds a membership runs besides its timed ones: soon after a change of the group's Leases
 * (debounced, so that a burst of changes makes one round), and at the moment the next other
 * replica's Lease expires, so that a dead replica's slots are taken then and not up to a renew
 * period later. Every round runs on the membership's single thread, so no two run at once.
 */
final class PromptRounds {
  /**
   * Runs a task once after a delay on the membership's thread; what it returns cancels it (a no-op
   * once the thread is shut down).
   */
  @FunctionalInterface
  interface Timer {
    Runnable after(long delayNanos, Runnable task);
  }

  /**
   * How long a change waits for the ones that follow it: a graceful stop writes the map and then
   * deletes its Lease, a few milliseconds apart; one round after both sees the replica gone.
   */
  static final long SETTLE_NANOS = Duration.ofMillis(150).toNanos();

  /** Past an expiry, so that the round judges it on the far side of the moment. */
  static final long PAST_EXPIRY_NANOS = Duration.ofMillis(50).toNanos();

  private final Timer timer;
  private final Runnable round;
  private final AtomicBoolean pending = new AtomicBoolean();
  // the expiry round, touched on the membership's thread only
  private long expiryAt;
  private Runnable cancelExpiry;

  PromptRounds(Timer timer, Runnable round) {
    this.timer = timer;
    this.round = round;
  }

  /**
   * A round soon, unless one is already waiting: changes that come while it waits are seen by it.
   * Any thread.
   */
  void soon() {
    if (pending.compareAndSet(false, true)) {
      timer.after(
          SETTLE_NANOS,
          () -> {
            // cleared before the round reads: a change during the round asks for another
            pending.set(false);
            round.run();
          });
    }
  }

  /**
   * A round just after {@code expiry} (on the membership's clock, which reads {@code now}), in
   * place of the one asked for an earlier or later expiry; none when no other Lease is live. On the
   * membership's thread.
   */
  void expiry(OptionalLong expiry, long now) {
    if (cancelExpiry != null && expiry.isPresent() && expiry.getAsLong() == expiryAt) {
      return;
    }
    if (cancelExpiry != null) {
      cancelExpiry.run();
      cancelExpiry = null;
    }
    if (expiry.isPresent()) {
      expiryAt = expiry.getAsLong();
      cancelExpiry = timer.after(Math.max(0, expiryAt - now) + PAST_EXPIRY_NANOS, round);
    }
  }
}
