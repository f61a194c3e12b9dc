package dev.capstan.engine.ops.events;

/** The two Kubernetes event types. */
public enum EventType {
  NORMAL("Normal"),
  WARNING("Warning");

  private final String apiValue;

  EventType(String apiValue) {
    this.apiValue = apiValue;
  }

  /** The value written to {@code Event.type}. */
  public String apiValue() {
    return apiValue;
  }
}
