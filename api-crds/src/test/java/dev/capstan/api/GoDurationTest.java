package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.GoDuration;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {

  @ParameterizedTest
  @CsvSource({
    "30s,30000",
    "5m,300000",
    "1h30m,5400000",
    "500ms,500",
    "1.5s,1500",
    "2h0m10s,7210000"
  })
  void parsesGoDurations(String text, long millis) {
    assertEquals(Duration.ofMillis(millis), GoDuration.parse(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "5", "5 minutes", "-1s", "1d", "m5"})
  void rejectsWhatIsNotADurationNamingIt(String text) {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
    assertTrue(error.getMessage().contains("\"" + text + "\""), error.getMessage());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2562047788016h",
        "2562048h",
        "2562047h47m16.855s",
        "9223372036855s",
        "99999999999999999999999999999999999999ms"
      })
  void refusesDurationsLongerThanGoCanHoldInsteadOfWrappingNegative(String text) {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
    assertEquals(
        "invalid duration \"" + text + "\": longer than the longest duration, 2562047h47m16.854s",
        error.getMessage());
  }

  @Test
  void theLongestDurationGoCanHoldIsAccepted() {
    assertEquals(Duration.ofMillis(9_223_372_036_854L), GoDuration.parse("2562047h47m16.854s"));
  }

  @ParameterizedTest
  @CsvSource({"0,0s", "500,500ms", "30000,30s", "90000,1m30s", "3600000,1h0m0s", "1500,1.5s"})
  void formatsLikeGo(long millis, String text) {
    assertEquals(text, GoDuration.format(Duration.ofMillis(millis)));
  }

  @Test
  void aPositiveDurationIsLongerThanZero() {
    assertEquals(Duration.ofSeconds(1), GoDuration.parsePositive("1s"));
    for (String zero : new String[] {"0s", "0ms", "0h0m"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> GoDuration.parsePositive(zero));
      assertEquals("must be more than 0s", e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> GoDuration.parsePositive("soon"));
  }
}
