package dev.capstan.engine.kustomization;

import dev.capstan.applier.Applier;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.prune.Pruner;
import dev.capstan.applier.wait.ApplyWaiter;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.Executor;

/**
 * The parts of a reconcile that act on the cluster for a Kustomization: apply, prune and the health
 * reads. They share one client, which is either the engine's own or one impersonating the
 * Kustomization's service account.
 */
public record Acting(
    KubernetesClient client, ApplyStage applier, PruneStage pruner, ApplyWaiter waiter) {

  /** Acting through {@code client}; requests in flight are bounded by {@code executor}. */
  public static Acting of(KubernetesClient client, Executor executor, Polling polling) {
    return new Acting(
        client,
        new Applier(client, executor, polling)::apply,
        PruneStage.of(new Pruner(client, executor, polling)),
        ApplyWaiter.onCluster(client, executor, polling));
  }
}
