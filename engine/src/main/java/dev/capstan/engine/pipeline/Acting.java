package dev.capstan.engine.pipeline;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.Polling;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The parts of a reconcile that act on the cluster for a Kustomization or a HelmRelease: apply,
 * prune and the health reads. They share one client, which is either the engine's own or one
 * impersonating the Kustomization's service account.
 */
public record Acting(
    KubernetesClient client, ApplyStage applier, PruneStage pruner, HealthReads waiter) {

  /**
   * Acting through {@code client} with one resource manager; requests in flight are bounded by
   * {@code executor}.
   */
  public static Acting of(KubernetesClient client, Executor executor, Polling polling) {
    ResourceManager manager = ResourceManager.recent(client, executor, polling);
    return new Acting(client, manager::apply, PruneStage.of(manager), manager::health);
  }

  /** One look at the health of applied objects, read live: the resource manager's. */
  @FunctionalInterface
  public interface HealthReads {
    AggregateHealth health(List<ObjectRef> objects, HealthEvaluator evaluator);
  }
}
