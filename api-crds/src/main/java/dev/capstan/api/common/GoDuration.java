package dev.capstan.api.common;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations in the Go syntax that Flux uses for intervals and timeouts, e.g. {@code 1m30s}. */
public final class GoDuration {
  /** A sequence of number+unit pairs; no sign, no bare numbers. Used by the CRD schema. */
  public static final String PATTERN = "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$";

  /** Go's longest duration, 2^63-1 nanoseconds, in milliseconds. */
  private static final BigDecimal MAX_MILLIS = BigDecimal.valueOf(Long.MAX_VALUE).movePointLeft(6);

  private static final Pattern WHOLE = Pattern.compile(PATTERN);
  private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h)");

  private GoDuration() {}

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException naming the text when it is not a duration, or is longer than
   *     Go's longest (about 292 years), which Flux could not read either
   */
  public static Duration parse(String text) {
    if (text == null || !WHOLE.matcher(text).matches()) {
      throw new IllegalArgumentException(
          "invalid duration \"" + text + "\": expected e.g. 30s, 5m or 1h30m");
    }
    BigDecimal millis = BigDecimal.ZERO;
    Matcher part = PART.matcher(text);
    while (part.find()) {
      millis =
          millis.add(
              new BigDecimal(part.group(1))
                  .multiply(BigDecimal.valueOf(unitMillis(part.group(2)))));
      if (millis.compareTo(MAX_MILLIS) > 0) {
        throw new IllegalArgumentException(
            "invalid duration \""
                + text
                + "\": longer than the longest duration, "
                + format(Duration.ofMillis(MAX_MILLIS.longValue())));
      }
    }
    return Duration.ofMillis(millis.longValue());
  }

  /**
   * Parses {@code text} as a duration that must be longer than zero (an interval or a timeout: a
   * zero one would loop or never wait).
   *
   * @throws IllegalArgumentException as {@link #parse}, or "must be more than 0s"
   */
  public static Duration parsePositive(String text) {
    Duration parsed = parse(text);
    if (parsed.isZero()) {
      throw new IllegalArgumentException("must be more than 0s");
    }
    return parsed;
  }

  /** Formats a duration the way Go prints it (e.g. {@code 1m30s}, {@code 500ms}). */
  public static String format(Duration duration) {
    long millis = duration.toMillis();
    if (millis == 0) {
      return "0s";
    }
    if (millis < 1000) {
      return millis + "ms";
    }
    StringBuilder out = new StringBuilder();
    long hours = millis / 3_600_000;
    long minutes = millis / 60_000 % 60;
    long seconds = millis / 1000 % 60;
    long rest = millis % 1000;
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      out.append(minutes).append('m');
    }
    out.append(seconds);
    if (rest > 0) {
      out.append('.').append(String.format("%03d", rest).replaceAll("0+$", ""));
    }
    return out.append('s').toString();
  }

  private static long unitMillis(String unit) {
    return switch (unit) {
      case "ms" -> 1;
      case "s" -> 1000;
      case "m" -> 60_000;
      case "h" -> 3_600_000;
      default -> throw new IllegalArgumentException("unknown unit " + unit);
    };
  }
}
