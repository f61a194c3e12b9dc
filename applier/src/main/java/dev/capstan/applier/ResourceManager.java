package dev.capstan.applier;

import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.apply.ClusterAccess;
import dev.capstan.applier.apply.DiscoveryCache;
import dev.capstan.applier.apply.KeptDiscovery;
import dev.capstan.applier.apply.RecentDiscovery;
import dev.capstan.applier.apply.StagedApplier;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.common.Polling;
import dev.capstan.applier.diff.DiffReport;
import dev.capstan.applier.diff.Differ;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.applier.prune.Pruner;
import dev.capstan.applier.wait.ApplyWaiter;
import dev.capstan.applier.wait.ObjectLookup;
import dev.capstan.applier.wait.WaitResult;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The applier's entry point: everything Capstan does to the objects of a revision, built once from
 * one client (the engine's, an impersonating one, or the user's), the executor that bounds its
 * requests in flight, the polling of its waits and the discovery answers it keeps. Each verb is a
 * file of its own behind it (apply: {@link StagedApplier}; prune and delete: {@link Pruner}; diff:
 * {@link Differ}; health and wait: {@link ApplyWaiter}), and every one of them finds kinds through
 * the same kept discovery.
 */
public final class ResourceManager {

  private final StagedApplier applier;
  private final Pruner pruner;
  private final Differ differ;
  private final ApplyWaiter waiter;

  /**
   * @param executor sends the requests of one verb concurrently; it bounds the requests in flight
   * @param polling clock, interval and sleep of every wait (CRDs Established, deletions, health)
   * @param discovery the discovery answers every verb keeps and reads
   */
  public ResourceManager(
      KubernetesClient client, Executor executor, Polling polling, KeptDiscovery discovery) {
    ClusterAccess cluster = new ClusterAccess(client, executor, polling, discovery);
    this.applier = new StagedApplier(cluster);
    this.pruner = new Pruner(cluster);
    this.differ = new Differ(cluster);
    this.waiter = ApplyWaiter.onCluster(cluster);
  }

  /**
   * A manager that acts again and again, as the engine and the web view do: the answers of
   * discovery for built-in groups are believed for {@link RecentDiscovery#TTL}.
   */
  public static ResourceManager recent(
      KubernetesClient client, Executor executor, Polling polling) {
    return new ResourceManager(
        client, executor, polling, new RecentDiscovery(RecentDiscovery.TTL, Clock.systemUTC()));
  }

  /**
   * A manager for one command of the user's: discovery answers kept on disk between runs ({@link
   * DiscoveryCache#ofUser}).
   */
  public static ResourceManager ofUser(KubernetesClient client, Executor executor) {
    return new ResourceManager(client, executor, Polling.system(), DiscoveryCache.ofUser());
  }

  /** Applies one revision with staged server-side apply. */
  public ApplyResult apply(ApplyRequest request) {
    return applier.apply(request);
  }

  /** Deletes what {@code previous} has and {@code current} does not. */
  public List<ObjectResult> prune(
      InventorySet previous, InventorySet current, Owner owner, Duration timeout) {
    return pruner.prune(previous, current, owner, timeout);
  }

  /**
   * What {@link #prune} would do to each of {@code stale}, deleting nothing (see {@link
   * Pruner#wouldPrune}): the reads end by {@code deadline}.
   */
  public List<ObjectResult> wouldPrune(List<ObjectRef> stale, Owner owner, Duration deadline) {
    return pruner.wouldPrune(stale, owner, deadline);
  }

  /**
   * Deletes the objects of {@code inventory} that prune would delete (those of a deleted
   * Kustomization); with {@code waitForTermination} every deletion is waited for.
   */
  public List<ObjectResult> delete(
      InventorySet inventory, Owner owner, Duration timeout, boolean waitForTermination) {
    return pruner.deleteInventory(inventory, owner, timeout, waitForTermination);
  }

  /** What applying {@code objects} would change, by server-side dry-run against live state. */
  public DiffReport diff(
      List<GenericKubernetesResource> objects, Owner owner, String defaultNamespace) {
    return differ.diff(objects, owner, defaultNamespace);
  }

  /** The health of {@code refs} now: one look, reading them live and concurrently. */
  public AggregateHealth health(List<ObjectRef> refs, HealthEvaluator evaluator) {
    return waiter.health(refs, evaluator);
  }

  /**
   * Looks every {@code interval} until all of {@code refs} are Current, one has Failed, or {@code
   * timeout} has passed.
   */
  public WaitResult await(
      List<ObjectRef> refs, HealthEvaluator evaluator, Duration timeout, Duration interval) {
    return waiter.await(refs, evaluator, timeout, interval);
  }

  /**
   * The health of {@code refs} as {@code lookup} sees them (an informer's cache, or the answers of
   * an apply): the same judge as {@link #health}, with no request of its own.
   */
  public static AggregateHealth health(
      List<ObjectRef> refs, ObjectLookup lookup, HealthEvaluator evaluator) {
    return ApplyWaiter.health(refs, lookup, evaluator);
  }

  /**
   * Whether a failed result of {@link #prune} or {@link #delete} only means the object had not
   * finished terminating in time (its deletion was accepted): not a refusal.
   */
  public static boolean stillTerminating(ObjectResult result) {
    return Pruner.stillTerminating(result);
  }
}
