package dev.capstan.health;

/**
 * Holds back a built-in entry's Current when the generic layer sees the object still progressing or
 * failed ({@link GenericRules#objection}): a Reconciling or Stalled condition, a condition
 * describing an older generation, the Ready condition False or Unknown, or status.phase/state
 * saying so. A library entry is written from an operator's documentation and examples; these signs
 * are the operator saying, in the vocabulary every controller shares, that the object is not done.
 * A user's entry is never held back: it keeps Flux's semantics.
 */
final class BuiltinGuard {

  ResourceStatus check(ResourceStatus status, ObjectView object, DecidedBy entry) {
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
