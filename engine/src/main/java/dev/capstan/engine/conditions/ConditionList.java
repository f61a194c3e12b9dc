package dev.capstan.engine.conditions;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An ordered list of conditions being built from a previous one. A condition keeps its
 * lastTransitionTime while its status stays the same, as Kubernetes conventions ask.
 */
final class ConditionList {
  private final List<Condition> previous;
  private final long generation;
  private final String now;
  private final List<Condition> next = new ArrayList<>();

  ConditionList(List<Condition> previous, long generation, Instant now) {
    this.previous = previous == null ? List.of() : previous;
    this.generation = generation;
    this.now = DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
  }

  static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions == null
        ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  ConditionList set(String type, String status, Reason reason, String message) {
    return set(type, status, reason.text(), message);
  }

  /** As {@link #set(String, String, Reason, String)}, with a reason another kind names. */
  ConditionList set(String type, String status, String reason, String message) {
    String since =
        find(previous, type)
            .filter(c -> status.equals(c.getStatus()) && c.getLastTransitionTime() != null)
            .map(Condition::getLastTransitionTime)
            .orElse(now);
    next.add(
        new ConditionBuilder()
            .withType(type)
            .withStatus(status)
            .withReason(reason)
            .withMessage(ConditionMessages.bounded(message))
            .withObservedGeneration(generation)
            .withLastTransitionTime(since)
            .build());
    return this;
  }

  /** Copies the previous condition of this type unchanged, if there was one. */
  ConditionList keep(String type) {
    find(previous, type).ifPresent(next::add);
    return this;
  }

  /** The condition of this type set so far, if any. */
  Optional<Condition> current(String type) {
    return find(next, type);
  }

  /** Drops the condition of this type set so far, to be set anew. */
  ConditionList drop(String type) {
    next.removeIf(c -> type.equals(c.getType()));
    return this;
  }

  List<Condition> build() {
    return List.copyOf(next);
  }
}
