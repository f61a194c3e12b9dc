package dev.capstan.cli.objects;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Ages as kubectl prints them: {@code 45s}, {@code 3m12s}, {@code 25m}, {@code 5h10m}, {@code 3d}.
 */
final class Age {
  private Age() {}

  /** The age of an object created at {@code timestamp} (RFC 3339), or {@code <unknown>}. */
  static String since(String timestamp, Instant now) {
    if (timestamp == null || timestamp.isBlank()) {
      return "<unknown>";
    }
    try {
      return of(Duration.between(Instant.parse(timestamp), now));
    } catch (DateTimeParseException e) {
      return "<unknown>";
    }
  }

  static String of(Duration age) {
    long seconds = Math.max(0, age.getSeconds());
    long minutes = seconds / 60;
    long hours = minutes / 60;
    long days = hours / 24;
    if (seconds < 120) {
      return seconds + "s";
    }
    if (minutes < 10) {
      return minutes + "m" + (seconds % 60 == 0 ? "" : seconds % 60 + "s");
    }
    if (minutes < 180) {
      return minutes + "m";
    }
    if (hours < 8) {
      return hours + "h" + (minutes % 60 == 0 ? "" : minutes % 60 + "m");
    }
    if (hours < 48) {
      return hours + "h";
    }
    if (hours < 24 * 8) {
      return days + "d" + (hours % 24 == 0 ? "" : hours % 24 + "h");
    }
    if (days < 365 * 2) {
      return days + "d";
    }
    long years = days / 365;
    return years < 8 ? years + "y" + (days % 365 == 0 ? "" : days % 365 + "d") : years + "y";
  }
}
