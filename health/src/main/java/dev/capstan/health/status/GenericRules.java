package dev.capstan.health.status;

import java.util.Map;

/**
 * The health of a custom resource nobody wrote a rule for, after kstatus's deletion, generation and
 * Reconciling/Stalled steps: (a) readiness, failure and progress conditions ({@link
 * ConditionSignals}); (b) conditions that describe an older generation than {@code
 * metadata.generation} ({@link ConditionGenerations}: the Ready condition, or every condition that
 * carries a generation), and the other generation and revision fields of the status ({@link
 * StatusRevisions}); (c) the common status vocabularies ({@link StatusFieldSignals}); (d) kstatus's
 * default, Current. Conservative: an object whose conditions are behind is InProgress whatever they
 * say (they speak of an older spec); otherwise a failure from any step wins, then progress from any
 * step, and the generic layer says Current only when no step sees progress.
 */
public final class GenericRules {
  private static final ResourceStatus DEFAULT =
      ResourceStatus.current("Resource is current")
          .decidedBy(DecidedBy.generic(DecidedBy.GenericStep.DEFAULT));

  private GenericRules() {}

  public static ResourceStatus evaluate(ObjectView object) {
    Map<?, ?> status = object.at("status") instanceof Map<?, ?> map ? map : null;
    ConditionGenerations generations = ConditionGenerations.of(object);
    ResourceStatus behind = generations == null ? null : generations.objectBehind(object);
    if (behind != null) {
      return behind.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.OBSERVED_GENERATION));
    }
    ResourceStatus decided =
        attributed(
            ConditionSignals.evaluate(object, generations), DecidedBy.GenericStep.CONDITIONS);
    if (status != null) {
      decided =
          worst(
              worst(decided, olderRevision(object, status)),
              attributed(
                  StatusFieldSignals.evaluate(status), DecidedBy.GenericStep.STATUS_VOCABULARY));
    }
    return decided != null ? decided : DEFAULT;
  }

  /**
   * The signs strong enough to hold back a built-in entry's Current: a Reconciling or Stalled
   * condition, the conditions describing an older generation ({@link ConditionGenerations}), the
   * Ready condition False or Unknown, another generation or revision field behind ({@link
   * StatusRevisions}), {@code status.phase}/{@code status.state} saying progress or failure, a
   * failure stated by a part of the status ({@code status.ceph.health: HEALTH_ERR}), or {@code
   * status.readyReplicas}/{@code availableReplicas} below {@code status.replicas} (pods still
   * rolling). (Weaker signs — other condition types, other fields — are left to the entry, which
   * knows its kind better.) Null when none of them objects.
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
    ConditionGenerations generations = ConditionGenerations.of(object);
    ResourceStatus behind = generations == null ? null : generations.objectBehind(object);
    if (behind != null) {
      return behind.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.OBSERVED_GENERATION));
    }
    Condition ready = object.condition("Ready");
    if (ready != null && (ready.status().equals("False") || ready.status().equals("Unknown"))) {
      return ConditionSignals.evaluateOne(ready)
          .decidedBy(DecidedBy.generic(DecidedBy.GenericStep.CONDITIONS));
    }
    if (!(object.at("status") instanceof Map<?, ?> status)) {
      return null;
    }
    ResourceStatus older = olderRevision(object, status);
    if (older != null) {
      return older;
    }
    ResourceStatus phase = StatusFieldSignals.phaseOrState(status);
    if (phase == null) {
      phase = StatusFieldSignals.partFailure(status);
    }
    if (phase == null) {
      phase = StatusFieldSignals.replicaCounts(status);
    }
    return phase == null
        ? null
        : phase.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.STATUS_VOCABULARY));
  }

  /**
   * A failure that stands whatever the conditions of readiness say, else null: a condition whose
   * reason says the controller will not try again, or a failure word in the field that states the
   * whole object's phase, state or health. What overrides a built-in entry's InProgress, which
   * often reads only the Ready condition.
   */
  public static ResourceStatus terminalFailure(ObjectView object) {
    for (Condition c : object.conditions()) {
      if (HealthWords.isTerminalReason(c.reason())
          && ConditionSignals.signalOf(c) == Signal.FAILED) {
        return ConditionSignals.evaluateOne(c)
            .decidedBy(DecidedBy.generic(DecidedBy.GenericStep.CONDITIONS));
      }
    }
    if (!(object.at("status") instanceof Map<?, ?> status)) {
      return null;
    }
    ResourceStatus word = StatusFieldSignals.failureWord(status);
    return word == null
        ? null
        : word.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.STATUS_VOCABULARY));
  }

  /**
   * The generic layer's answer when it is Failed, else null: what decides a built-in entry's object
   * when none of the entry's expressions is true.
   */
  public static ResourceStatus failure(ObjectView object) {
    ResourceStatus generic = evaluate(object);
    return generic.status() == Status.Failed ? generic : null;
  }

  /**
   * A generation field other than {@code status.observedGeneration} behind the object's, a newer
   * revision than the one ready, or a request to act again that the status has not handled yet
   * ({@link StatusRevisions}); null when none of them.
   */
  private static ResourceStatus olderRevision(ObjectView object, Map<?, ?> status) {
    // The most common status holds conditions and observedGeneration and nothing else, which
    // kstatus and step (b) have read already.
    int plain =
        (status.containsKey("conditions") ? 1 : 0)
            + (status.containsKey("observedGeneration") ? 1 : 0);
    if (status.size() == plain) {
      return null;
    }
    ResourceStatus behind = StatusRevisions.generationBehind(object.object(), status);
    if (behind != null) {
      return behind.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.OBSERVED_GENERATION));
    }
    ResourceStatus newer = StatusRevisions.newerRevision(status);
    if (newer == null) {
      newer = StatusRevisions.requestNotHandled(object.object(), status);
    }
    return newer == null
        ? null
        : newer.decidedBy(DecidedBy.generic(DecidedBy.GenericStep.NEWER_REVISION));
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
}
