package dev.capstan.health;

import dev.capstan.health.status.Status;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The health of a set of objects.
 *
 * @param status Failed if any object failed, else InProgress if any is not Current, else Current
 * @param message the objects that are not Current, ordered by {@code Kind/namespace/name}, each
 *     with its own status and reason; empty when everything is Current
 * @param notCurrent the objects that are not Current, in the same order
 * @param notes the objects that are Current but carry a note ({@link ResourceStatus#hasNote()}: a
 *     CronJob whose last Job did not succeed), in the same order
 * @param evaluated how many objects took part (objects marked to be skipped do not)
 */
public record AggregateHealth(
    Status status,
    String message,
    List<ResourceHealth> notCurrent,
    List<ResourceHealth> notes,
    int evaluated) {
  public AggregateHealth {
    notCurrent = List.copyOf(notCurrent);
    notes = List.copyOf(notes);
    message = message == null ? "" : message;
  }

  /**
   * The notes as text, {@code Kind/namespace/name: message (Reason)} joined by {@code "; "}; empty
   * when there are none.
   */
  public String notesMessage() {
    return notes.stream()
        .map(
            h -> h.ref().display() + ": " + h.status().message() + " (" + h.status().reason() + ")")
        .collect(Collectors.joining("; "));
  }
}
