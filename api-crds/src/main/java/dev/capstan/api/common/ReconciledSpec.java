package dev.capstan.api.common;

/**
 * What the spec of every kind Capstan reconciles at an interval holds, under Flux's names: how
 * often, how long one reconcile may take, and whether reconciling is suspended. A new kind's spec
 * implements it to be scheduled and suspended as the others are.
 */
public interface ReconciledSpec {

  /** {@code spec.interval}, a Go duration. */
  String interval();

  /** {@code spec.timeout}, a Go duration; null for the kind's default. */
  String timeout();

  /** {@code spec.suspend} as written; null when absent. */
  Boolean suspend();

  /** {@code suspend}, false when absent. */
  default boolean suspended() {
    return Boolean.TRUE.equals(suspend());
  }
}
