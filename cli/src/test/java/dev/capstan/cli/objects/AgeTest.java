package dev.capstan.cli.objects;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AgeTest {

  @Test
  void printsAgesAsKubectlDoes() {
    assertEquals("0s", Age.of(Duration.ZERO));
    assertEquals("45s", Age.of(Duration.ofSeconds(45)));
    assertEquals("119s", Age.of(Duration.ofSeconds(119)));
    assertEquals("2m", Age.of(Duration.ofMinutes(2)));
    assertEquals("3m12s", Age.of(Duration.ofSeconds(192)));
    assertEquals("25m", Age.of(Duration.ofMinutes(25).plusSeconds(30)));
    assertEquals("5h10m", Age.of(Duration.ofMinutes(310)));
    assertEquals("30h", Age.of(Duration.ofHours(30)));
    assertEquals("3d4h", Age.of(Duration.ofHours(76)));
    assertEquals("40d", Age.of(Duration.ofDays(40)));
    assertEquals("3y10d", Age.of(Duration.ofDays(3 * 365 + 10)));
  }

  @Test
  void negativeAgesFromClockSkewAreZero() {
    assertEquals("0s", Age.of(Duration.ofSeconds(-5)));
  }

  @Test
  void readsRfc3339Timestamps() {
    Instant now = Instant.parse("2026-01-01T00:10:00Z");
    assertEquals("10m", Age.since("2026-01-01T00:00:00Z", now));
    assertEquals("<unknown>", Age.since("yesterday", now));
    assertEquals("<unknown>", Age.since(null, now));
  }
}
