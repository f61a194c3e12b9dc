package dev.capstan.helm.release;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Helm's record times written and read back; a missing or unreadable one falls back. */
class HelmTimeTest {
  private static final Instant OTHERWISE = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aWrittenTimeReadsBackAndAnyOffsetIsRead() {
    Instant at = Instant.parse("2024-05-01T10:00:00.5Z");
    assertEquals("2024-05-01T10:00:00.5Z", HelmTime.format(at));
    assertEquals(at, HelmTime.parse(HelmTime.format(at), OTHERWISE));
    assertEquals(at, HelmTime.parse("2024-05-01T12:00:00.5+02:00", OTHERWISE));
  }

  @Test
  void aMissingOrUnreadableTimeIsTheFallback() {
    assertEquals(OTHERWISE, HelmTime.parse(null, OTHERWISE));
    assertEquals(OTHERWISE, HelmTime.parse("yesterday", OTHERWISE));
  }
}
