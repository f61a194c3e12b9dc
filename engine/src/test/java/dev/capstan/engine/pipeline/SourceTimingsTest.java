package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.api.source.GitRepositorySpec;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SourceTimingsTest {

  private static GitRepositorySpec spec(String interval, String timeout) {
    return new GitRepositorySpec(
        "https://git.example/org/repo.git",
        null,
        interval,
        timeout,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0s", "0ms", "0m0s", "0.0h", "0h0m0s0ms"})
  void anIntervalOfZeroIsRefusedSoThatNothingFetchesInALoop(String interval) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SourceTimings.of(spec(interval, null)));
    assertEquals("spec.interval: must be more than 0s", e.getMessage());
  }

  @Test
  void anIntervalLongerThanGoCanHoldIsRefusedNotWrappedNegative() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> SourceTimings.of(spec("2562047788016h", null)));
    assertEquals(
        "spec.interval: invalid duration \"2562047788016h\": longer than the longest duration, "
            + "2562047h47m16.854s",
        e.getMessage());
  }

  @Test
  void aTimeoutOfZeroIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SourceTimings.of(spec("1m", "0s")));
    assertEquals("spec.timeout: must be more than 0s", e.getMessage());
  }

  @Test
  void usableValuesAreRead() {
    assertEquals(
        new SourceTimings(Duration.ofMinutes(1), Optional.empty()),
        SourceTimings.of(spec("1m", null)));
    assertEquals(
        new SourceTimings(Duration.ofMillis(500), Optional.of(Duration.ofSeconds(90))),
        SourceTimings.of(spec("500ms", "1m30s")));
  }
}
