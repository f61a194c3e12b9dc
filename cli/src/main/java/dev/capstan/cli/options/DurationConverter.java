package dev.capstan.cli.options;

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
  /**
   * Reads {@code value} of {@code option} for a command that reports its own bad input (as one
   * line, without the usage picocli adds): the message is the one picocli gives for an option read
   * with this converter.
   *
   * @throws IllegalArgumentException naming the option and the value
   */
  public static Duration read(String option, String value) {
    try {
      return new DurationConverter().convert(value);
    } catch (TypeConversionException e) {
      throw new IllegalArgumentException(
          "Invalid value for option '" + option + "': " + e.getMessage(), e);
    }
  }

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
