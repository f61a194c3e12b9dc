package dev.capstan.engine.ops.events;

import java.time.Instant;

/**
 * What to write for one recorded event after correlation: a new Event ({@code count == 1}) or an
 * update of the Event {@code name} that already stands for the same occurrence.
 */
record CorrelatedEvent(
    InvolvedObject object,
    EventType type,
    EventReason reason,
    String message,
    String name,
    int count,
    Instant firstTimestamp,
    Instant lastTimestamp) {

  boolean isNew() {
    return count == 1;
  }
}
