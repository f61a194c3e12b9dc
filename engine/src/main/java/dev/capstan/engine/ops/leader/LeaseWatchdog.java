package dev.capstan.engine.ops.leader;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * Tells a leader when it must stop: when the last renewal of its Lease that it has seen is older
 * than the renew deadline. The operator framework's renewal loop checks its deadline only between
 * two attempts, and an attempt whose request hangs (a partition) holds it for the client's whole
 * request timeout, long enough for a standby to take the Lease first. This judge waits for no
 * request: it is fed what reads of the Lease show and asked on a timer.
 *
 * <p>Time is measured from the renewal time the Lease records, which the leader itself wrote from
 * its own clock, and which a standby adds the lease duration to: so the leader stops a lease
 * duration minus renew deadline before any standby may lead.
 */
final class LeaseWatchdog {
  private final String identity;
  private final Duration renewDeadline;
  private final Clock clock;
  // Written under this object's lock, so that a read in flight across a take-over cannot set back
  // the take-over's time; read without it by the checks.
  private volatile Instant confirmed = Instant.MIN;

  LeaseWatchdog(String identity, Duration renewDeadline, Clock clock) {
    this.identity = identity;
    this.renewDeadline = renewDeadline;
    this.clock = clock;
  }

  /**
   * The Lease was just acquired. Its recorded renewal is a moment earlier (the request's latency),
   * which the gap between renew deadline and lease duration covers.
   */
  synchronized void startedLeading() {
    confirmed = clock.instant();
  }

  /** A read of the Lease showed this holder and renewal time (either may be absent). */
  synchronized void observed(Optional<String> holder, Optional<ZonedDateTime> renewTime) {
    if (holder.filter(identity::equals).isEmpty() || renewTime.isEmpty()) {
      return;
    }
    Instant renewed = renewTime.get().toInstant();
    if (renewed.isAfter(confirmed)) {
      confirmed = renewed;
    }
  }

  /** Whether a replica that leads must stop now: no renewal seen within the renew deadline. */
  boolean expired(boolean leading) {
    return leading && clock.instant().isAfter(confirmed.plus(renewDeadline));
  }

  /** How long ago the last renewal seen was, for the message of a replica that stops. */
  Duration sinceConfirmed() {
    return Duration.between(confirmed, clock.instant());
  }
}
