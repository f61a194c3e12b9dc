package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import java.time.Duration;

/**
 * Told what the pipelines did, for metrics and events. Called on the reconciling thread;
 * implementations must be quick and must not throw.
 */
public interface PipelineObserver {
  /** Observes nothing. */
  PipelineObserver NONE = new PipelineObserver() {};

  /**
   * One reconcile of a Kustomization or GitRepository ended; a failure written to the status is a
   * failure here too, even though the reconcile itself returned normally.
   */
  default void reconciled(String kind, NamespacedName key, Outcome.Kind outcome) {}

  /** One apply (and prune) of a Kustomization: objects created or changed, objects deleted. */
  default void objectsChanged(NamespacedName kustomization, int applied, int pruned) {}

  /**
   * One chart rendered for an object of {@code kind} (a HelmRelease), whatever the render's result:
   * counted so that a reconcile that should render nothing can be seen to render nothing.
   */
  default void chartRendered(String kind) {}

  /** One fetch of a GitRepository or pull of an OCIRepository. */
  default void fetched(NamespacedName repository, boolean succeeded, Duration took) {}

  /** One health wait ended: all healthy ({@code succeeded}), a failure, or the timeout. */
  default void healthWaited(NamespacedName kustomization, boolean succeeded, Duration took) {}

  /** A Kustomization's status was written: the object with its status before and after. */
  default void statusWritten(Kustomization before, Kustomization after) {}

  /** A GitRepository's status was written: the object with its status before and after. */
  default void statusWritten(GitRepository before, GitRepository after) {}

  /** An OCIRepository's status was written: the object with its status before and after. */
  default void statusWritten(OCIRepository before, OCIRepository after) {}

  /** A HelmChart's status was written: the object with its status before and after. */
  default void statusWritten(HelmChart before, HelmChart after) {}

  /** A HelmRepository's status was written: the object with its status before and after. */
  default void statusWritten(HelmRepository before, HelmRepository after) {}

  /** A Bucket's status was written: the object with its status before and after. */
  default void statusWritten(Bucket before, Bucket after) {}
}
