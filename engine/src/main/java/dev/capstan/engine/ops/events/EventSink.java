package dev.capstan.engine.ops.events;

/** Where correlated events are written. */
interface EventSink {

  void create(CorrelatedEvent event, String component);

  /**
   * Updates an existing Event's count, last timestamp and message; false if it no longer exists.
   */
  boolean update(CorrelatedEvent event);
}
