package dev.capstan.health.cel;

import dev.capstan.health.status.BadObjectException;
import dev.capstan.health.status.DecidedBy;
import dev.capstan.health.status.GenericRules;
import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;

/**
 * Checks a built-in entry's answer against the signs every controller shares ({@link
 * GenericRules}). A library entry is written from an operator's documentation; these signs are the
 * operator saying, in the vocabulary every controller shares, what the entry may not know.
 *
 * <ul>
 *   <li>An entry's Current is held back when the generic layer sees the object still progressing or
 *       failed ({@link GenericRules#objection}): a Reconciling or Stalled condition, the conditions
 *       describing an older generation, the Ready condition False or Unknown, status.phase/state
 *       saying so, a part of the status stating a failure, or fewer ready or available replicas
 *       than the status counts.
 *   <li>When none of an entry's expressions is true, the entry has no opinion of the object's state
 *       (a phase or reason its source did not list, often one a newer release added), and a failure
 *       the generic layer reads ({@link GenericRules#failure}: a failure condition, a readiness
 *       condition False with a reason naming a failure, an Error or Degraded phase) decides instead
 *       of the default InProgress.
 *   <li>An entry's InProgress gives way to a failure that stands whatever the readiness conditions
 *       say ({@link GenericRules#terminalFailure}: a condition whose reason says the controller
 *       will not try again, or a failure word in status.phase, state or health): entries often read
 *       only the Ready condition, which many operators leave False or Unknown after a terminal
 *       failure they report elsewhere.
 * </ul>
 *
 * A user's entry is never checked: it keeps Flux's semantics.
 */
public final class BuiltinGuard {

  public ResourceStatus check(ResourceStatus status, ObjectView object, DecidedBy entry) {
    if (status.status() != Status.Current && status.status() != Status.InProgress) {
      return status;
    }
    ResourceStatus generic;
    try {
      generic =
          status.status() == Status.Current
              ? GenericRules.objection(object)
              : CelHealthCheck.PENDING.equals(status.reason())
                  ? GenericRules.failure(object)
                  : GenericRules.terminalFailure(object);
    } catch (BadObjectException unreadable) {
      // The entry could read the object; an oddity the generic reader rejects is no objection.
      return status;
    }
    if (generic == null) {
      return status;
    }
    return generic.decidedBy(new DecidedBy.HeldBack(entry.rule(), generic.decidedBy()));
  }
}
