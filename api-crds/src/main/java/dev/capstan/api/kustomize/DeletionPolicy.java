package dev.capstan.api.kustomize;

/** What happens to the applied objects when the Kustomization is deleted (Flux's values). */
public enum DeletionPolicy {
  /** Delete them when {@code prune} is true, keep them otherwise. */
  MirrorPrune,
  /** Always delete them. */
  Delete,
  /** Delete them and wait until they are gone before the Kustomization goes. */
  WaitForTermination,
  /** Never delete them. */
  Orphan;

  /**
   * Whether the objects are deleted along with a Kustomization whose {@code spec.prune} is given.
   */
  public boolean deletesObjects(boolean prune) {
    return switch (this) {
      case MirrorPrune -> prune;
      case Delete, WaitForTermination -> true;
      case Orphan -> false;
    };
  }

  /** Whether the deletion waits until every object is gone (finalizers done). */
  public boolean waitsForTermination() {
    return this == WaitForTermination;
  }
}
