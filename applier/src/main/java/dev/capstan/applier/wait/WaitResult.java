package dev.capstan.applier.wait;

import dev.capstan.health.AggregateHealth;
import dev.capstan.health.status.Status;
import java.time.Instant;
import java.util.Objects;

/**
 * Where a wait for health stands after one look.
 *
 * @param verdict whether the wait is over, and how
 * @param health the health of the objects waited for, as last seen
 */
public record WaitResult(Verdict verdict, AggregateHealth health) {

  /**
   * How a wait stands. Only {@link #IN_PROGRESS} goes on; NotFound and Unknown objects keep it
   * going.
   */
  public enum Verdict {
    /** Every object is Current. */
    CURRENT,
    /** An object Failed: waiting longer would not help. */
    FAILED,
    /** Not all Current yet, time is left. */
    IN_PROGRESS,
    /** Not all Current when the deadline came. */
    TIMED_OUT
  }

  public WaitResult {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(health, "health");
  }

  /** The one rule of every wait: Current ends it, Failed ends it, otherwise the deadline does. */
  public static WaitResult of(AggregateHealth health, Instant now, Instant deadline) {
    if (health.status() == Status.Current) {
      return new WaitResult(Verdict.CURRENT, health);
    }
    if (health.status() == Status.Failed) {
      return new WaitResult(Verdict.FAILED, health);
    }
    return new WaitResult(now.isBefore(deadline) ? Verdict.IN_PROGRESS : Verdict.TIMED_OUT, health);
  }

  /** Whether the wait goes on. */
  public boolean pending() {
    return verdict == Verdict.IN_PROGRESS;
  }
}
