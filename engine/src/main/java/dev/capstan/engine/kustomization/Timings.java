package dev.capstan.engine.kustomization;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.engine.conditions.Reason;
import java.time.Duration;

/** A Kustomization's interval, retryInterval and timeout, with Flux's defaults applied. */
record Timings(Duration interval, Duration retryInterval, Duration timeout) {
  private static final Duration DELETION_DEFAULT = Duration.ofMinutes(1);

  static Timings of(KustomizationSpec spec) {
    Duration interval = parse("spec.interval", spec.interval());
    Duration retry =
        spec.retryInterval() == null ? interval : parse("spec.retryInterval", spec.retryInterval());
    Duration timeout = spec.timeout() == null ? interval : parse("spec.timeout", spec.timeout());
    return new Timings(interval, retry, timeout);
  }

  /**
   * How long the deletion of a Kustomization's objects may take: spec.timeout, or a minute when it
   * is unset or not a positive duration. A spec the reconcile refuses must not keep the
   * Kustomization from being deleted.
   */
  static Duration forDeletion(KustomizationSpec spec) {
    if (spec.timeout() == null) {
      return DELETION_DEFAULT;
    }
    try {
      return GoDuration.parsePositive(spec.timeout());
    } catch (IllegalArgumentException e) {
      return DELETION_DEFAULT;
    }
  }

  private static Duration parse(String field, String value) {
    try {
      return GoDuration.parsePositive(value);
    } catch (IllegalArgumentException e) {
      throw StageFailure.terminal(Reason.INVALID_SPEC, field + ": " + e.getMessage());
    }
  }
}
