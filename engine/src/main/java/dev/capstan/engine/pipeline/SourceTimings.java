package dev.capstan.engine.pipeline;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.source.GitRepositorySpec;
import java.time.Duration;
import java.util.Optional;

/**
 * A source's interval and timeout. Neither may be 0s: an interval of 0s would fetch again the
 * moment a fetch ends, for ever; a timeout of 0s could never fetch anything.
 */
public record SourceTimings(Duration interval, Optional<Duration> timeout) {

  /**
   * @throws IllegalArgumentException naming the field and what is wrong with it
   */
  public static SourceTimings of(GitRepositorySpec spec) {
    return of(spec.interval(), spec.timeout());
  }

  /** The same for an OCIRepository's (or any source's) interval and timeout. */
  public static SourceTimings of(String intervalText, String timeoutText) {
    Duration interval = parse("spec.interval", intervalText);
    Optional<Duration> timeout =
        timeoutText == null ? Optional.empty() : Optional.of(parse("spec.timeout", timeoutText));
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
