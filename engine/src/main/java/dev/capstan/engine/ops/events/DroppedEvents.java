package dev.capstan.engine.ops.events;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * Counts the Events dropped because their writer fell behind (a wave of hundreds of new revisions
 * fills its queue), so that the log says so once per interval with a count, not once per Event: a
 * wave of 500 Kustomizations under a commit stream dropped about a thousand in 20 s, each a line.
 */
final class DroppedEvents {
  private final Clock clock;
  private final Duration interval;
  private long unreported;
  private Instant reportedAt;

  DroppedEvents(Clock clock, Duration interval) {
    this.clock = clock;
    this.interval = interval;
  }

  /**
   * One more Event dropped: how many to report now (this one included), or nothing while the last
   * report is more recent than the interval.
   */
  synchronized OptionalLong dropped() {
    unreported++;
    return reportIfDue();
  }

  /**
   * How many were dropped and not reported yet, once the interval since the last report is over.
   */
  synchronized OptionalLong unreported() {
    return unreported == 0 ? OptionalLong.empty() : reportIfDue();
  }

  private OptionalLong reportIfDue() {
    Instant now = clock.instant();
    if (reportedAt != null && now.isBefore(reportedAt.plus(interval))) {
      return OptionalLong.empty();
    }
    long count = unreported;
    unreported = 0;
    reportedAt = now;
    return OptionalLong.of(count);
  }
}
