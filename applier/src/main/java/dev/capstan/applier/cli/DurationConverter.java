package dev.capstan.applier.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses durations written as Kubernetes writes them: {@code 90s}, {@code 5m}, {@code 1h30m}. */
final class DurationConverter implements ITypeConverter<Duration> {

  private static final Pattern PART = Pattern.compile("(\\d+)(ms|h|m|s)");

  @Override
  public Duration convert(String value) {
    if (value == null || value.isEmpty()) {
      throw new TypeConversionException("empty duration");
    }
    Matcher m = PART.matcher(value);
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.find() && m.start() == end) {
      long n = Long.parseLong(m.group(1));
      total = total.plus(switch (m.group(2)) {
        case "h" -> Duration.ofHours(n);
        case "m" -> Duration.ofMinutes(n);
        case "s" -> Duration.ofSeconds(n);
        default -> Duration.ofMillis(n);
      });
      end = m.end();
    }
    if (end != value.length()) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration such as 30s, 5m or 1h30m");
    }
    return total;
  }
}
