package dev.capstan.health.status;

/** One entry of {@code status.conditions}; missing reason and message are empty strings. */
public record Condition(String type, String status, String reason, String message) {

  public boolean is(String conditionType, String conditionStatus) {
    return type.equals(conditionType) && status.equals(conditionStatus);
  }
}
