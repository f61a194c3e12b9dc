package dev.capstan.health.cel;

import dev.capstan.health.BadObjectException;
import dev.capstan.health.DecidedBy;
import dev.capstan.health.GenericRules;
import dev.capstan.health.ObjectView;
import dev.capstan.health.ResourceStatus;
import dev.capstan.health.Status;

/**
 * Holds back a built-in entry's Current when the generic layer sees the object still progressing or
 * failed ({@link GenericRules#objection}): a Reconciling or Stalled condition, a condition
 * describing an older generation, the Ready condition False or Unknown, or status.phase/state
 * saying so. A library entry is written from an operator's documentation and examples; these signs
 * are the operator saying, in the vocabulary every controller shares, that the object is not done.
 * A user's entry is never held back: it keeps Flux's semantics.
 */
public final class BuiltinGuard {

  public ResourceStatus check(ResourceStatus status, ObjectView object, DecidedBy entry) {
    if (status.status() != Status.Current) {
      return status;
    }
    ResourceStatus objection;
    try {
      objection = GenericRules.objection(object);
    } catch (BadObjectException unreadable) {
      // The entry could read the object; an oddity the generic reader rejects is no objection.
      return status;
    }
    if (objection == null) {
      return status;
    }
    return objection.decidedBy(new DecidedBy.HeldBack(entry.rule(), objection.decidedBy()));
  }
}
