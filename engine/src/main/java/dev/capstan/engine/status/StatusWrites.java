package dev.capstan.engine.status;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;

/** Where the Kustomization pipeline writes statuses; {@link StatusWriter} in the engine. */
public interface StatusWrites {

  /** Writes a Kustomization's status unless it is unchanged; returns the status now in place. */
  KustomizationStatus write(Kustomization current, KustomizationStatus next);

  /** Forgets what was remembered of a deleted object. */
  void forget(HasMetadata object);
}
