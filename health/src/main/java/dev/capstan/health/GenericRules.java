package dev.capstan.health;

import java.util.List;
import java.util.Map;

/**
 * The health of a custom resource nobody wrote a rule for, after kstatus's deletion, generation and
 * Reconciling/Stalled steps: (a) readiness, failure and progress conditions ({@link
 * ConditionSignals}); (b) conditions that describe an older generation than {@code
 * metadata.generation}; (c) the common status vocabularies ({@link StatusVocabulary}); (d)
 * kstatus's default, Current. Conservative: a generation behind is InProgress whatever the
 * conditions say (they speak of an older spec); otherwise a failure from any step wins, then
 * progress from any step, and the generic layer says Current only when no step sees progress.
 */
public final class GenericRules {
  private static final ResourceStatus DEFAULT =
      ResourceStatus.current("Resource is current")
          .decidedBy(DecidedBy.generic(DecidedBy.GenericStep.DEFAULT));

  private GenericRules() {}

  public static ResourceStatus evaluate(ObjectView object) {
    Map<?, ?> status = object.at("status") instanceof Map<?, ?> map ? map : null;
    ResourceStatus generation = conditionGenerations(object);
    if (generation != null) {
      return generation.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.OBSERVED_GENERATION));
    }
    ResourceStatus conditions = ConditionSignals.evaluate(object);
    ResourceStatus vocabulary = status == null ? null : StatusVocabulary.evaluate(status);
    ResourceStatus decided =
        worst(
            attributed(conditions, DecidedBy.GenericStep.CONDITIONS),
            attributed(vocabulary, DecidedBy.GenericStep.STATUS_VOCABULARY));
    return decided != null ? decided : DEFAULT;
  }

  /**
   * The signs strong enough to hold back a built-in entry's Current: a Reconciling or Stalled
   * condition, a condition describing an older generation, the Ready condition False or Unknown, or
   * {@code status.phase}/{@code status.state} saying progress or failure. (Weaker signs — other
   * condition types, other fields — are left to the entry, which knows its kind better.) Null when
   * none of them objects.
   */
  public static ResourceStatus objection(ObjectView object) {
    for (Condition c : object.conditions()) {
      if (c.is("Reconciling", "True") || c.is("Stalled", "True")) {
        ResourceStatus s =
            c.type().equals("Stalled")
                ? ResourceStatus.failed(c.reason(), c.message())
                : ResourceStatus.inProgress(c.reason(), c.message());
        return s.decidedBy(DecidedBy.kstatus(DecidedBy.KstatusRule.STANDARD_CONDITIONS));
      }
    }
    ResourceStatus generation = conditionGenerations(object);
    if (generation != null) {
      return generation.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.OBSERVED_GENERATION));
    }
    Condition ready = object.condition("Ready");
    if (ready != null && (ready.status().equals("False") || ready.status().equals("Unknown"))) {
      return ConditionSignals.evaluateOne(ready)
          .decidedBy(DecidedBy.generic(DecidedBy.GenericStep.CONDITIONS));
    }
    ResourceStatus phase =
        object.at("status") instanceof Map<?, ?> status
            ? StatusVocabulary.phaseOrState(status)
            : null;
    return phase == null
        ? null
        : phase.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.STATUS_VOCABULARY));
  }

  private static ResourceStatus attributed(ResourceStatus status, DecidedBy.GenericStep step) {
    DecidedBy rule = DecidedBy.generic(step);
    return status == null || status.decidedBy() == rule ? status : status.decidedBy(rule);
  }

  /** Failed before InProgress before Current; between equals, the earlier step. */
  private static ResourceStatus worst(ResourceStatus first, ResourceStatus second) {
    if (first == null || second == null) {
      return first == null ? second : first;
    }
    return rank(second.status()) > rank(first.status()) ? second : first;
  }

  private static int rank(Status status) {
    return switch (status) {
      case Failed -> 2;
      case InProgress -> 1;
      default -> 0;
    };
  }

  /** Step (b): a condition whose own observedGeneration is behind metadata.generation. */
  private static ResourceStatus conditionGenerations(ObjectView object) {
    List<?> conditions = object.rawConditions();
    for (int i = 0; i < conditions.size(); i++) {
      // Most conditions carry no observedGeneration: look the object's generation up only when
      // one does.
      if (conditions.get(i) instanceof Map<?, ?> condition
          && condition.get("observedGeneration") instanceof Number observed
          && object.object().get("metadata") instanceof Map<?, ?> metadata
          && metadata.get("generation") instanceof Number generation
          && observed.longValue() < generation.longValue()) {
        String type = condition.get("type") instanceof String t ? t : "a";
        return ResourceStatus.inProgress(
            GenerationCheck.REASON,
            type
                + " condition describes generation "
                + observed.longValue()
                + ", but the object is at generation "
                + generation.longValue());
      }
    }
    return null;
  }
}
