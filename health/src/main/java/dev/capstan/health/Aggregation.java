package dev.capstan.health;

import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Combines the health of many objects: any Failed → Failed; else any not Current → InProgress; else
 * Current. The message lists the objects that are not Current, ordered by {@code
 * Kind/namespace/name}, each with its own status, reason and the rule that decided it; Current
 * objects that carry a note (a CronJob whose last Job did not succeed) are kept apart as notes.
 */
public final class Aggregation {
  private static final Comparator<ResourceHealth> ORDER =
      Comparator.comparing((ResourceHealth h) -> h.ref().display())
          .thenComparing(h -> h.ref().apiVersion());

  private Aggregation() {}

  /** Aggregates already evaluated objects (none of them is skipped here). */
  public static AggregateHealth of(List<ResourceHealth> healths) {
    boolean failed = false;
    List<ResourceHealth> notCurrent = new ArrayList<>();
    List<ResourceHealth> notes = new ArrayList<>();
    for (ResourceHealth health : healths) {
      Status status = health.status().status();
      if (status == Status.Failed) {
        failed = true;
      }
      if (status != Status.Current) {
        notCurrent.add(health);
      } else if (health.status().hasNote()) {
        notes.add(health);
      }
    }
    notCurrent.sort(ORDER);
    notes.sort(ORDER);
    Status overall =
        failed ? Status.Failed : notCurrent.isEmpty() ? Status.Current : Status.InProgress;
    String message =
        notCurrent.stream().map(Aggregation::describe).collect(Collectors.joining("; "));
    return new AggregateHealth(overall, message, notCurrent, notes, healths.size());
  }

  /**
   * {@code Kind/namespace/name is Status: message (Reason) [decided by rule]}; the rule is left out
   * for a status no rule decided (an object not found, or one that could not be read).
   */
  static String describe(ResourceHealth health) {
    ResourceStatus status = health.status();
    StringBuilder text =
        new StringBuilder(health.ref().display()).append(" is ").append(status.status());
    if (!status.message().isEmpty()) {
      text.append(": ").append(status.message());
    }
    if (!status.reason().isEmpty()) {
      text.append(" (").append(status.reason()).append(')');
    }
    if (!(status.decidedBy() instanceof DecidedBy.None)) {
      text.append(" [decided by ").append(status.decidedBy().describe()).append(']');
    }
    return text.toString();
  }
}
