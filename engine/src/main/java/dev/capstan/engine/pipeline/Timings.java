package dev.capstan.engine.pipeline;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.engine.conditions.Reason;
import java.time.Duration;

/** A Kustomization's interval, retryInterval and timeout, with Flux's defaults applied. */
record Timings(Duration interval, Duration retryInterval, Duration timeout) {

  static Timings of(KustomizationSpec spec) {
    Duration interval = parse("spec.interval", spec.interval());
    Duration retry = spec.retryInterval() == null ? interval : parse("spec.retryInterval", spec.retryInterval());
    Duration timeout = spec.timeout() == null ? interval : parse("spec.timeout", spec.timeout());
    return new Timings(interval, retry, timeout);
  }

  private static Duration parse(String field, String value) {
    try {
      return GoDuration.parsePositive(value);
    } catch (IllegalArgumentException e) {
      throw StageFailure.terminal(Reason.INVALID_SPEC, field + ": " + e.getMessage());
    }
  }
}
