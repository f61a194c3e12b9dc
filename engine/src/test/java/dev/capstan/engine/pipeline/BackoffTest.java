package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private final Backoff backoff = Backoff.defaults();

  @Test
  void doublesFromTheBaseUpToTheCap() {
    Duration cap = Duration.ofSeconds(10);
    assertEquals(Duration.ofSeconds(1), backoff.delay(1, cap));
    assertEquals(Duration.ofSeconds(2), backoff.delay(2, cap));
    assertEquals(Duration.ofSeconds(4), backoff.delay(3, cap));
    assertEquals(Duration.ofSeconds(8), backoff.delay(4, cap));
    assertEquals(cap, backoff.delay(5, cap));
    assertEquals(cap, backoff.delay(500, cap), "no overflow on long failure streaks");
  }

  @Test
  void aCapBelowTheBaseWins() {
    assertEquals(Duration.ofMillis(300), backoff.delay(1, Duration.ofMillis(300)));
  }
}
