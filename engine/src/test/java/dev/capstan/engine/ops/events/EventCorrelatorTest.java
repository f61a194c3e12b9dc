package dev.capstan.engine.ops.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.conditions.Reason;
import dev.capstan.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EventCorrelatorTest {
  private static final InvolvedObject KS =
      new InvolvedObject("kustomize.capstan.dev/v1", "Kustomization", "apps", "web", "uid-1");
  private static final InvolvedObject OTHER =
      new InvolvedObject("kustomize.capstan.dev/v1", "Kustomization", "apps", "db", "uid-2");

  private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final EventCorrelator correlator =
      new EventCorrelator(clock, EventCorrelator.Limits.defaults());

  private CorrelatedEvent record(InvolvedObject object, String message) {
    return correlator
        .correlate(object, EventType.WARNING, EventReason.of(Reason.APPLY_FAILED), message)
        .orElseThrow();
  }

  @Test
  void sameObjectReasonAndMessageUpdatesOneEventsCountAndLastTimestamp() {
    CorrelatedEvent first = record(KS, "Deployment/apps/web: field is immutable");
    clock.advance(Duration.ofSeconds(30));
    CorrelatedEvent second = record(KS, "Deployment/apps/web: field is immutable");

    assertTrue(first.isNew());
    assertEquals(first.name(), second.name());
    assertEquals(2, second.count());
    assertEquals(first.firstTimestamp(), second.firstTimestamp());
    assertEquals(first.firstTimestamp().plusSeconds(30), second.lastTimestamp());
  }

  @Test
  void aDifferentMessageReasonTypeOrObjectIsANewEvent() {
    CorrelatedEvent base = record(KS, "a");
    assertNotEquals(base.name(), record(KS, "b").name());
    assertNotEquals(base.name(), record(OTHER, "a").name());
    assertNotEquals(
        base.name(),
        correlator
            .correlate(KS, EventType.WARNING, EventReason.of(Reason.PRUNE_FAILED), "a")
            .orElseThrow()
            .name());
    assertNotEquals(
        base.name(),
        correlator
            .correlate(KS, EventType.NORMAL, EventReason.of(Reason.APPLY_FAILED), "a")
            .orElseThrow()
            .name());
  }

  @Test
  void eventNamesAreUniqueEvenAtTheSameInstant() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      names.add(record(KS, "m" + i).name());
    }
    assertEquals(5, names.stream().distinct().count());
    assertTrue(names.get(0).startsWith("web."), names.get(0));
  }

  @Test
  void aRetryLoopIsCutOffAfterTheBurstAndResumesOneEventPerRefill() {
    int written = 0;
    for (int i = 0; i < 100; i++) {
      if (correlator
          .correlate(KS, EventType.WARNING, EventReason.of(Reason.APPLY_FAILED), "boom")
          .isPresent()) {
        written++;
      }
    }
    assertEquals(25, written, "the burst");
    assertTrue(
        correlator
            .correlate(OTHER, EventType.WARNING, EventReason.of(Reason.APPLY_FAILED), "boom")
            .isPresent(),
        "another object has its own budget");

    clock.advance(Duration.ofMinutes(4));
    assertTrue(
        correlator
            .correlate(KS, EventType.WARNING, EventReason.of(Reason.APPLY_FAILED), "boom")
            .isEmpty());
    clock.advance(Duration.ofMinutes(1));
    Optional<CorrelatedEvent> after =
        correlator.correlate(KS, EventType.WARNING, EventReason.of(Reason.APPLY_FAILED), "boom");
    assertTrue(after.isPresent(), "one token after the refill interval");
    assertEquals(26, after.get().count(), "still the same Event");
    assertTrue(
        correlator
            .correlate(KS, EventType.WARNING, EventReason.of(Reason.APPLY_FAILED), "boom")
            .isEmpty());
  }

  @Test
  void manyDifferentMessagesOfOneReasonAreCombinedIntoOneEvent() {
    List<CorrelatedEvent> events = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      events.add(record(KS, "attempt " + i + " failed"));
    }
    assertEquals(10, events.subList(0, 10).stream().map(CorrelatedEvent::name).distinct().count());
    List<CorrelatedEvent> combined = events.subList(10, 15);
    assertEquals(1, combined.stream().map(CorrelatedEvent::name).distinct().count());
    assertEquals(EventCorrelator.COMBINED_PREFIX + "attempt 14 failed", combined.get(4).message());
    assertEquals(5, combined.get(4).count());

    assertEquals(
        "attempt 3 failed",
        record(KS, "attempt 3 failed").message(),
        "a known message stays itself");

    clock.advance(Duration.ofMinutes(11));
    assertEquals(
        "attempt 99 failed",
        record(KS, "attempt 99 failed").message(),
        "a new window starts afresh");
  }

  @Test
  void forgettingAnEventStartsANewSeries() {
    CorrelatedEvent first = record(KS, "x");
    CorrelatedEvent second = record(KS, "x");
    correlator.forget(second);
    CorrelatedEvent third = record(KS, "x");
    assertTrue(third.isNew());
    assertNotEquals(first.name(), third.name());
  }
}
