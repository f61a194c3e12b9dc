package dev.capstan.helm.release;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/**
 * Times as Helm's release JSON writes them: Go's RFC 3339 with nanoseconds, trailing zeros of the
 * fraction left out, in UTC.
 */
public final class HelmTime {
  private static final DateTimeFormatter GO_RFC3339_NANO =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .appendLiteral('Z')
          .toFormatter()
          .withZone(ZoneOffset.UTC);

  private HelmTime() {}

  /** {@code instant} as Helm writes it, e.g. {@code 2024-05-01T10:00:00.5Z}. */
  public static String format(Instant instant) {
    return GO_RFC3339_NANO.format(instant);
  }

  /**
   * A time of a release record as Helm (or another client) wrote it, with any offset; {@code
   * otherwise} when it is missing or unreadable, as in a record written by hand.
   */
  public static Instant parse(String text, Instant otherwise) {
    if (text == null) {
      return otherwise;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return otherwise;
    }
  }
}
