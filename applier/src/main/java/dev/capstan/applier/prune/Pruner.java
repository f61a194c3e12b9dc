package dev.capstan.applier.prune;

import dev.capstan.applier.apply.ClusterAccess;
import dev.capstan.applier.apply.ResourceCatalog;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.kube.ApiErrors;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Deletes objects that left the inventory. Namespaces and CRDs go last, after everything else, and
 * are waited for (their finalizers delete what they contain) within the timeout. Objects annotated
 * {@code capstan.dev/prune: disabled} or labelled for another owner are kept.
 */
public final class Pruner {

  /** How the reason of an object whose deletion was accepted but did not end in time starts. */
  public static final String STILL_TERMINATING = "deletion requested but still terminating after ";

  private final ClusterAccess cluster;

  public Pruner(ClusterAccess cluster) {
    this.cluster = cluster;
  }

  /** Deletes what {@code previous} has and {@code current} does not. */
  public List<ObjectResult> prune(
      InventorySet previous, InventorySet current, Owner owner, Duration timeout) {
    return delete(previous.staleAfter(current), owner, timeout, false);
  }

  /**
   * Deletes the objects of {@code inventory}, keeping those prune keeps (prune disabled, or not
   * owned by {@code owner}): what the engine calls when a Kustomization whose deletion policy
   * deletes its objects is deleted. With {@code waitForTermination} every deletion is waited for,
   * not only those of Namespaces and CRDs.
   */
  public List<ObjectResult> deleteInventory(
      InventorySet inventory, Owner owner, Duration timeout, boolean waitForTermination) {
    return delete(inventory.refs(), owner, timeout, waitForTermination);
  }

  private List<ObjectResult> delete(
      List<ObjectRef> refs, Owner owner, Duration timeout, boolean waitForAll) {
    ResourceCatalog catalog = cluster.catalog();
    List<ObjectRef> first = refs.stream().filter(r -> !isDefinition(r)).toList();
    List<ObjectRef> last = refs.stream().filter(Pruner::isDefinition).toList();
    List<ObjectResult> results = new ArrayList<>();
    results.addAll(deleteAll(first, owner, timeout, waitForAll, catalog));
    results.addAll(deleteAll(last, owner, timeout, true, catalog));
    return results;
  }

  private List<ObjectResult> deleteAll(
      List<ObjectRef> refs, Owner owner, Duration timeout, boolean wait, ResourceCatalog catalog) {
    List<CompletableFuture<Optional<ObjectResult>>> futures =
        refs.stream()
            .map(
                r ->
                    CompletableFuture.supplyAsync(
                        () -> deleteOne(r, owner, timeout, wait, catalog), cluster.executor()))
            .toList();
    return futures.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList();
  }

  private Optional<ObjectResult> deleteOne(
      ObjectRef ref, Owner owner, Duration timeout, boolean wait, ResourceCatalog catalog) {
    Optional<ObjectResult> looked = look(ref, owner, catalog);
    if (looked.isEmpty() || looked.get().action() != Action.DELETED) {
      return looked;
    }
    Resource<GenericKubernetesResource> resource =
        resource(catalog.find(ref.apiVersion(), ref.kind()).orElseThrow(), ref);
    try {
      resource.withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
      if (wait && !cluster.polling().until(() -> resource.get() == null, timeout)) {
        return Optional.of(new ObjectResult(ref, Action.FAILED, STILL_TERMINATING + timeout));
      }
      return Optional.of(ObjectResult.of(ref, Action.DELETED));
    } catch (KubernetesClientException e) {
      return Optional.of(new ObjectResult(ref, Action.FAILED, ApiErrors.reason(e)));
    }
  }

  /**
   * What prune decides for {@code ref} from the live object: empty when it is gone (or its kind no
   * longer served), DELETED when it may be deleted, SKIPPED with why it is kept, FAILED when it
   * cannot be read.
   */
  private Optional<ObjectResult> look(ObjectRef ref, Owner owner, ResourceCatalog catalog) {
    Optional<ResourceType> type = catalog.find(ref.apiVersion(), ref.kind());
    if (type.isEmpty()) {
      return Optional.empty(); // kind no longer served: its objects are gone
    }
    try {
      GenericKubernetesResource live = resource(type.get(), ref).get();
      if (live == null) {
        return Optional.empty();
      }
      Optional<String> keep =
          PruneDecision.keepReason(
              live.getMetadata().getLabels(), live.getMetadata().getAnnotations(), owner);
      return Optional.of(
          keep.map(why -> new ObjectResult(ref, Action.SKIPPED, why))
              .orElseGet(() -> ObjectResult.of(ref, Action.DELETED)));
    } catch (KubernetesClientException e) {
      return Optional.of(new ObjectResult(ref, Action.FAILED, ApiErrors.reason(e)));
    }
  }

  /**
   * What {@link #prune} would do to each of {@code stale}, deleting nothing: DELETED for one it
   * would delete, SKIPPED with why for one it keeps, FAILED with why for one that cannot be read (a
   * refusal too) or was not read within {@code deadline}; one already gone is left out.
   */
  public List<ObjectResult> wouldPrune(List<ObjectRef> stale, Owner owner, Duration deadline) {
    ResourceCatalog catalog = cluster.catalog();
    List<CompletableFuture<Optional<ObjectResult>>> futures =
        stale.stream()
            .map(
                r ->
                    CompletableFuture.supplyAsync(
                        () -> look(r, owner, catalog), cluster.executor()))
            .toList();
    try {
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
          .get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // each unanswered read is reported below
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<ObjectResult> results = new ArrayList<>();
    for (int i = 0; i < futures.size(); i++) {
      CompletableFuture<Optional<ObjectResult>> future = futures.get(i);
      if (!future.isDone()) {
        future.cancel(true);
        results.add(new ObjectResult(stale.get(i), Action.FAILED, "not read within " + deadline));
      } else if (future.isCompletedExceptionally()) {
        results.add(new ObjectResult(stale.get(i), Action.FAILED, "it could not be read"));
      } else {
        future.join().ifPresent(results::add);
      }
    }
    return results;
  }

  private Resource<GenericKubernetesResource> resource(ResourceType type, ObjectRef ref) {
    var resources = cluster.client().genericKubernetesResources(type.context());
    return type.namespaced()
        ? resources.inNamespace(ref.namespace()).withName(ref.name())
        : resources.withName(ref.name());
  }

  /**
   * Whether a failed result only means the object had not finished terminating in time (its
   * deletion was accepted): not a refusal.
   */
  public static boolean stillTerminating(ObjectResult result) {
    return result.failed() && result.reason().startsWith(STILL_TERMINATING);
  }

  private static boolean isDefinition(ObjectRef ref) {
    return (ref.group().isEmpty() && ref.kind().equals("Namespace"))
        || (ref.group().equals("apiextensions.k8s.io")
            && ref.kind().equals("CustomResourceDefinition"));
  }
}
