package dev.capstan.applier.apply;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/** What an apply does with one object, from its live metadata and the request's drift policy. */
enum DriftVerdict {
  /** Send it: new, changed in the source, or drift to correct. */
  WRITE,
  /** Nothing to do. */
  UNCHANGED,
  /** It carries the digest (or was applied before) but another writer touched it: look closer. */
  INSPECT,
  /** Missing though applied before, and drift is not looked at: left as it is. */
  LEFT_OUT;

  /**
   * The verdict for a desired object. {@code live} is the object's metadata as read by the owner's
   * labels, or null when no object of this owner was found.
   */
  static DriftVerdict of(
      GenericKubernetesResource live, DesiredObject desired, DriftPolicy policy) {
    DriftPolicy.Mode mode = policy.mode();
    if (mode == DriftPolicy.Mode.LOOK) {
      return INSPECT; // the digest may be another request's: only the comparison says
    }
    if (FieldOwnership.carriesDigest(live, desired)) {
      if (mode == DriftPolicy.Mode.IGNORE || FieldOwnership.ownershipIntact(live, desired)) {
        return UNCHANGED;
      }
      return mode == DriftPolicy.Mode.REPORT ? INSPECT : WRITE;
    }
    if (live == null && mode != DriftPolicy.Mode.CORRECT && policy.expects(desired.ref())) {
      return mode == DriftPolicy.Mode.REPORT ? INSPECT : LEFT_OUT;
    }
    return WRITE;
  }
}
