package dev.capstan.engine.cli;

import dev.capstan.api.common.GoDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --timeout} in the duration syntax of the API ({@code 90s}, {@code 5m}). */
final class TimeoutConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      Duration duration = GoDuration.parse(value);
      if (duration.isZero()) {
        throw new TypeConversionException("the timeout must be longer than 0s");
      }
      return duration;
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
