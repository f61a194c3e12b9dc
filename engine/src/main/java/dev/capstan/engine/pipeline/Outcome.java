package dev.capstan.engine.pipeline;

import java.time.Duration;
import java.util.Optional;

/**
 * How one reconcile ended, for the controller: whether and when to come back.
 *
 * @param kind what happened
 * @param requeueAfter when to reconcile again; empty means only on an event
 */
public record Outcome(Kind kind, Optional<Duration> requeueAfter) {

  /** The three kinds of non-success outcome, plus success and suspension. */
  public enum Kind {
    /** Applied and healthy: come back at the interval. */
    SUCCEEDED,
    /**
     * Waiting for what is on its way (the objects applied are not healthy yet, the artifact is
     * being fetched into a new store): look again soon.
     */
    WAITING,
    /** A dependency is not ready: nothing was tried; come back at retryInterval. */
    DEPENDENCY_NOT_READY,
    /** A failure that may go away by itself: retry with backoff capped at retryInterval. */
    TRANSIENT,
    /** A failure only a change can fix: stalled, no retry. */
    TERMINAL,
    /** The object asks not to be reconciled. */
    SUSPENDED
  }

  public static Outcome succeeded(Duration interval) {
    return new Outcome(Kind.SUCCEEDED, Optional.of(interval));
  }

  public static Outcome waiting(Duration after) {
    return new Outcome(Kind.WAITING, Optional.of(after));
  }

  public static Outcome dependencyNotReady(Duration after) {
    return new Outcome(Kind.DEPENDENCY_NOT_READY, Optional.of(after));
  }

  public static Outcome retry(Duration after) {
    return new Outcome(Kind.TRANSIENT, Optional.of(after));
  }

  public static Outcome terminal() {
    return new Outcome(Kind.TERMINAL, Optional.empty());
  }

  /** The same outcome, reconciled again at once (new input came while it ran). */
  public Outcome andAgainNow() {
    return new Outcome(kind, Optional.of(Duration.ZERO));
  }

  public static Outcome suspended() {
    return new Outcome(Kind.SUSPENDED, Optional.empty());
  }
}
