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
  Orphan
}
