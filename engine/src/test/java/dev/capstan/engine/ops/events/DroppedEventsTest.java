package dev.capstan.engine.ops.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DroppedEventsTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final DroppedEvents drops = new DroppedEvents(clock, Duration.ofSeconds(30));

  @Test
  void theFirstDropIsReportedAtOnceAndTheRestOncePerIntervalWithTheirCount() {
    assertEquals(OptionalLong.of(1), drops.dropped());
    for (int i = 0; i < 999; i++) {
      assertEquals(OptionalLong.empty(), drops.dropped());
    }
    clock.advance(Duration.ofSeconds(29));
    assertEquals(OptionalLong.empty(), drops.unreported());
    clock.advance(Duration.ofSeconds(1));
    assertEquals(OptionalLong.of(999), drops.unreported(), "the burst's rest, after the interval");
    assertEquals(OptionalLong.empty(), drops.unreported(), "nothing left to report");
    clock.advance(Duration.ofSeconds(31));
    assertEquals(OptionalLong.empty(), drops.unreported(), "no drop since");
    assertEquals(OptionalLong.of(1), drops.dropped());
  }

  @Test
  void aFullWriterCountsWhatItDropsAndAClosedOneRefuses() throws Exception {
    ThreadPoolExecutor writer = EventRecorder.writer(1, drops);
    CountDownLatch release = new CountDownLatch(1);
    try {
      writer.execute(() -> await(release)); // the writer busy
      writer.execute(() -> {}); // queued
      writer.execute(() -> {}); // dropped, reported at once
      writer.execute(() -> {}); // dropped, counted
      writer.execute(() -> {}); // dropped, counted
    } finally {
      release.countDown();
    }
    clock.advance(Duration.ofSeconds(30));
    assertEquals(OptionalLong.of(2), drops.unreported());
    writer.shutdown();
    assertTrue(writer.awaitTermination(5, TimeUnit.SECONDS));
    assertThrows(RejectedExecutionException.class, () -> writer.execute(() -> {}));
    clock.advance(Duration.ofSeconds(30));
    assertEquals(OptionalLong.empty(), drops.unreported(), "a refusal once closed is no drop");
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
