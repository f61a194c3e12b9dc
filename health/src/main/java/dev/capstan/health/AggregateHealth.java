package dev.capstan.health;

import java.util.List;

/**
 * The health of a set of objects.
 *
 * @param status Failed if any object failed, else InProgress if any is not Current, else Current
 * @param message the objects that are not Current, ordered by {@code Kind/namespace/name}, each
 *     with its own status and reason; empty when everything is Current
 * @param notCurrent the objects that are not Current, in the same order
 * @param evaluated how many objects took part (objects marked to be skipped do not)
 */
public record AggregateHealth(
    Status status, String message, List<ResourceHealth> notCurrent, int evaluated) {
  public AggregateHealth {
    notCurrent = List.copyOf(notCurrent);
    message = message == null ? "" : message;
  }
}
