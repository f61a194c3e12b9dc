package dev.capstan.engine.status;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;

/** Where the Kustomization pipeline writes statuses; {@link StatusWriter} in the engine. */
public interface StatusWrites {

  /** Writes a Kustomization's status unless it is unchanged; returns the status now in place. */
  KustomizationStatus write(Kustomization current, KustomizationStatus next);

  /**
   * The Kustomization to reconcile: {@code cached}, or one read again when {@code cached} is older
   * than the last status written to it; null when it is gone. A reconcile on a cache behind that
   * write would prune by the inventory before it and leave behind what the write recorded.
   */
  Kustomization current(Kustomization cached);

  /** Forgets what was remembered of a deleted object. */
  void forget(HasMetadata object);
}
