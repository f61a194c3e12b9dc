package dev.capstan.cli.objects;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.ReconcileRequest;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads whether a requested reconcile has finished and how it ended, from what the controller
 * wrote: {@code status.lastHandledReconcileAt} echoes the request, then Ready leaves Unknown.
 */
record ReconcileReport(boolean succeeded, String message) {

  /**
   * Whether the controller has handled {@code request} and settled: its generation is observed and
   * Ready is True or False (or the object is Stalled).
   */
  static boolean finished(ResourceView view, ReconcileRequest request) {
    if (view == null || !request.handledBy(view.lastHandledReconcileAt())) {
      return false;
    }
    if (view.observedGeneration() != null && view.observedGeneration() < view.generation()) {
      return false;
    }
    if ("True".equals(view.conditionStatus(ResourceView.STALLED))) {
      return true;
    }
    String ready = view.conditionStatus(ResourceView.READY);
    return "True".equals(ready) || "False".equals(ready);
  }

  /** How a finished reconcile ended: the applied (or fetched) revision, or why it is not Ready. */
  static ReconcileReport of(ResourceView view) {
    Optional<Condition> ready = view.condition(ResourceView.READY);
    if (ready.isPresent() && "True".equals(ready.get().getStatus())) {
      String verb = "Kustomization".equals(view.kind()) ? "applied" : "fetched";
      return new ReconcileReport(
          true,
          view.kind()
              + " "
              + view.name()
              + " reconciled: "
              + verb
              + " revision "
              + (view.revision().isEmpty() ? "(none)" : view.revision()));
    }
    Optional<Condition> stalled =
        view.condition(ResourceView.STALLED).filter(c -> "True".equals(c.getStatus()));
    Condition reason = stalled.or(() -> ready).orElse(null);
    return new ReconcileReport(
        false,
        view.kind()
            + " "
            + view.name()
            + " is not ready"
            + (reason == null ? "" : describe(reason)));
  }

  /** Why waiting ended without an outcome, from the last state seen (null: the object is gone). */
  static String timedOut(
      ResourceView last, ReconcileRequest request, Duration timeout, String what) {
    String prefix = "timed out after " + GoDuration.format(timeout) + " waiting for " + what;
    if (last == null) {
      return prefix + ": the object was deleted";
    }
    if (!request.handledBy(last.lastHandledReconcileAt())) {
      return prefix
          + ": the controller has not handled the request yet (is `capstan run` running?)";
    }
    return last.condition(ResourceView.READY)
        .map(c -> prefix + ": still" + describe(c))
        .orElse(prefix + ": it reports no Ready condition yet");
  }

  private static String describe(Condition condition) {
    String reason =
        condition.getReason() == null || condition.getReason().isEmpty()
            ? ""
            : " (" + condition.getReason() + ")";
    String message =
        condition.getMessage() == null || condition.getMessage().isEmpty()
            ? ""
            : ": " + condition.getMessage();
    return " " + condition.getType() + "=" + condition.getStatus() + reason + message;
  }
}
