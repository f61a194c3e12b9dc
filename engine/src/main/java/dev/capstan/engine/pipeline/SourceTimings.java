package dev.capstan.engine.pipeline;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.source.GitRepositorySpec;
import java.time.Duration;
import java.util.Optional;

/**
 * A GitRepository's interval and timeout. Neither may be 0s: an interval of 0s would fetch again
 * the moment a fetch ends, for ever; a timeout of 0s could never fetch anything.
 */
record SourceTimings(Duration interval, Optional<Duration> timeout) {

  /**
   * @throws IllegalArgumentException naming the field and what is wrong with it
   */
  static SourceTimings of(GitRepositorySpec spec) {
    Duration interval = parse("spec.interval", spec.interval());
    Optional<Duration> timeout =
        spec.timeout() == null
            ? Optional.empty()
            : Optional.of(parse("spec.timeout", spec.timeout()));
    return new SourceTimings(interval, timeout);
  }

  private static Duration parse(String field, String value) {
    try {
      return GoDuration.parsePositive(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
    }
  }
}
