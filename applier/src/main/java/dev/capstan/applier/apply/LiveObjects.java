package dev.capstan.applier.apply;

import dev.capstan.applier.common.Owner;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The live state of a set of desired objects, read with one LIST per kind and namespace rather than
 * one GET per object.
 */
public final class LiveObjects {

  /**
   * From this many namespaces on, a kind's owned objects are read with one LIST of all namespaces:
   * the owner's labels select the same objects, in fewer round trips.
   */
  static final int NAMESPACES_FOR_ONE_LIST = 3;

  private final Map<ObjectRef, GenericKubernetesResource> byRef;

  private LiveObjects(Map<ObjectRef, GenericKubernetesResource> byRef) {
    this.byRef = byRef;
  }

  /** Every desired object that exists, whoever owns it, read whole. */
  public static LiveObjects read(
      KubernetesClient client, Collection<DesiredObject> desired, Executor executor) {
    return read(desired, executor, scope -> list(client, scope.type(), scope.namespace()));
  }

  /**
   * Starts reading the desired objects that exist and carry {@code owner}'s labels, plus every
   * desired Namespace that exists. The LISTs select by the owner's labels, so that a Kustomization
   * that shares a namespace with many others reads its own objects only, not all of them. An object
   * read as absent here either does not exist or is not (yet) this owner's: either way it is not in
   * its desired state and will be written. Namespaces are read whoever owns them, since the staging
   * depends on whether a namespace exists at all.
   *
   * <p>Only metadata is read: whether an object is unchanged is decided from its digest annotation
   * and managed fields alone, and a LIST of metadata is a fraction of the bytes of whole objects
   * for both the API server and this process. Needs only the objects' identities, so the caller can
   * digest the objects while the LISTs are in flight.
   *
   * <p>A kind in {@value #NAMESPACES_FOR_ONE_LIST} or more namespaces is read with one LIST of all
   * namespaces; an identity that may not list across namespaces (a tenant) gets one LIST per
   * namespace instead.
   */
  public static CompletableFuture<LiveObjects> readOwned(
      KubernetesClient client, Collection<DesiredObject> desired, Owner owner, Executor executor) {
    MetadataLists metadata = new MetadataLists(client);
    Set<Scope> scopes = scopesOf(desired);
    Function<Scope, List<GenericKubernetesResource>> lister =
        scope -> metadata.list(scope.type(), scope.namespace(), owner.labels());
    return start(
            widened(scopes),
            executor,
            scope ->
                scope.allNamespaces()
                    ? acrossNamespaces(scope, scopes, lister)
                    : lister.apply(scope))
        .thenApplyAsync(owned -> withNamespaces(owned, client, desired), executor);
  }

  /** Starts reading every desired Namespace that exists, and nothing else. */
  public static CompletableFuture<LiveObjects> readNamespaces(
      KubernetesClient client, Collection<DesiredObject> desired, Executor executor) {
    return CompletableFuture.supplyAsync(
        () -> withNamespaces(new LiveObjects(new ConcurrentHashMap<>()), client, desired),
        executor);
  }

  /** The scopes, with one all-namespaces scope for each kind in many namespaces. */
  private static Set<Scope> widened(Set<Scope> scopes) {
    Map<ResourceType, List<Scope>> byType =
        scopes.stream().collect(Collectors.groupingBy(Scope::type));
    Set<Scope> widened = new HashSet<>();
    byType.forEach(
        (type, ofType) -> {
          if (type.namespaced() && ofType.size() >= NAMESPACES_FOR_ONE_LIST) {
            widened.add(new Scope(type, null));
          } else {
            widened.addAll(ofType);
          }
        });
    return widened;
  }

  /**
   * One LIST of all namespaces or, where that is forbidden, one per namespace of {@code scopes}.
   */
  private static List<GenericKubernetesResource> acrossNamespaces(
      Scope wide, Set<Scope> scopes, Function<Scope, List<GenericKubernetesResource>> lister) {
    try {
      return lister.apply(wide);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 403) {
        throw e;
      }
      List<GenericKubernetesResource> items = new ArrayList<>();
      scopes.stream()
          .filter(scope -> scope.type().equals(wide.type()))
          .forEach(scope -> items.addAll(listed(scope, lister)));
      return items;
    }
  }

  private static LiveObjects withNamespaces(
      LiveObjects owned, KubernetesClient client, Collection<DesiredObject> desired) {
    desired.stream()
        .filter(d -> d.isNamespace() && owned.get(d.ref()) == null)
        .forEach(
            d -> get(client, d).ifPresent(live -> owned.byRef.put(d.ref().withoutVersion(), live)));
    return owned;
  }

  /**
   * One LIST: a kind, and the namespace for a namespaced kind ("" for a cluster-scoped kind, null
   * for all namespaces).
   */
  private record Scope(ResourceType type, String namespace) {
    boolean allNamespaces() {
      return namespace == null;
    }
  }

  private static Set<Scope> scopesOf(Collection<DesiredObject> desired) {
    return desired.stream()
        .map(d -> new Scope(d.type(), d.ref().namespace()))
        .collect(Collectors.toSet());
  }

  private static LiveObjects read(
      Collection<DesiredObject> desired,
      Executor executor,
      Function<Scope, List<GenericKubernetesResource>> lister) {
    return Futures.joined(start(scopesOf(desired), executor, lister));
  }

  /** Starts one LIST per scope on the executor; completes when all have answered. */
  private static CompletableFuture<LiveObjects> start(
      Set<Scope> scopes,
      Executor executor,
      Function<Scope, List<GenericKubernetesResource>> lister) {
    Map<ObjectRef, GenericKubernetesResource> found = new ConcurrentHashMap<>();
    CompletableFuture<?>[] lists =
        scopes.stream()
            .map(
                scope ->
                    CompletableFuture.runAsync(
                        () ->
                            listed(scope, lister)
                                .forEach(
                                    live -> found.put(ObjectRef.of(live).withoutVersion(), live)),
                        executor))
            .toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(lists).thenApply(done -> new LiveObjects(found));
  }

  /** The live object, or null when it does not exist. */
  public GenericKubernetesResource get(ObjectRef ref) {
    return byRef.get(ref.withoutVersion());
  }

  /** The scope's items with apiVersion and kind set (LIST items carry neither). */
  private static List<GenericKubernetesResource> listed(
      Scope scope, Function<Scope, List<GenericKubernetesResource>> lister) {
    try {
      List<GenericKubernetesResource> items = lister.apply(scope);
      items.forEach(
          item -> {
            item.setApiVersion(scope.type().apiVersion());
            item.setKind(scope.type().kind());
          });
      return items;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return List.of(); // kind not served yet: defined by a CRD of this revision
      }
      if (e.getCode() == 403) {
        // May not list here (an impersonated tenant): read as absent, so each object's own
        // dry-run fails with the API server's reason naming it.
        return List.of();
      }
      throw e;
    }
  }

  private static List<GenericKubernetesResource> list(
      KubernetesClient client, ResourceType type, String namespace) {
    var resources = client.genericKubernetesResources(type.context());
    return (type.namespaced() ? resources.inNamespace(namespace) : resources).list().getItems();
  }

  private static Optional<GenericKubernetesResource> get(
      KubernetesClient client, DesiredObject desired) {
    try {
      return Optional.ofNullable(
          client
              .genericKubernetesResources(desired.type().context())
              .withName(desired.ref().name())
              .get());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 403) {
        return Optional.empty(); // as for a LIST this identity may not make
      }
      throw e;
    }
  }
}
