package dev.capstan.applier.cli;

import dev.capstan.api.common.GoDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration option in the API's Go syntax ({@code 90s}, {@code 1.5m}, {@code 1h2m}), as
 * {@code spec.timeout} and {@code spec.interval} are written. Every duration option of the command
 * line is a time limit, where zero would mean giving up at once: {@code 0s} is refused. Picocli
 * puts the option's name before the message.
 */
public final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return GoDuration.parsePositive(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(
          e.getMessage().startsWith("invalid duration")
              ? e.getMessage()
              : "'" + value + "' " + e.getMessage());
    }
  }
}
