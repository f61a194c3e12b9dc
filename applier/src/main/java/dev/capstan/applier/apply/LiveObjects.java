package dev.capstan.applier.apply;

import dev.capstan.applier.ObjectRef;
import dev.capstan.applier.Owner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;

/**
 * The live state of a set of desired objects, read with one LIST per kind and namespace rather
 * than one GET per object.
 */
public final class LiveObjects {

  private final Map<ObjectRef, GenericKubernetesResource> byRef;

  private LiveObjects(Map<ObjectRef, GenericKubernetesResource> byRef) {
    this.byRef = byRef;
  }

  /** Every desired object that exists, whoever owns it. */
  public static LiveObjects read(
      KubernetesClient client, Collection<DesiredObject> desired, Executor executor) {
    return read(client, desired, Optional.empty(), executor);
  }

  /**
   * The desired objects that exist and carry {@code owner}'s labels, plus every desired
   * Namespace that exists. The LISTs select by the owner's labels, so that a Kustomization that
   * shares a namespace with many others reads its own objects only, not all of them. An object
   * read as absent here either does not exist or is not (yet) this owner's: either way it is not
   * in its desired state and will be written. Namespaces are read whoever owns them, since the
   * staging depends on whether a namespace exists at all.
   */
  public static LiveObjects readOwned(
      KubernetesClient client, Collection<DesiredObject> desired, Owner owner, Executor executor) {
    LiveObjects owned = read(client, desired, Optional.of(owner), executor);
    desired.stream()
        .filter(d -> d.isNamespace() && owned.get(d.ref()) == null)
        .forEach(d -> get(client, d).ifPresent(live -> owned.byRef.put(d.ref().withoutVersion(), live)));
    return owned;
  }

  private static LiveObjects read(KubernetesClient client, Collection<DesiredObject> desired,
      Optional<Owner> owner, Executor executor) {
    record Scope(ResourceType type, String namespace) {}
    Map<Scope, List<DesiredObject>> scopes =
        desired.stream()
            .collect(Collectors.groupingBy(d -> new Scope(d.type(), d.ref().namespace())));
    Map<ObjectRef, GenericKubernetesResource> found = new ConcurrentHashMap<>();
    CompletableFuture<?>[] lists =
        scopes.keySet().stream()
            .map(
                scope ->
                    CompletableFuture.runAsync(
                        () -> list(client, scope.type(), scope.namespace(), owner).forEach(
                            live -> found.put(ObjectRef.of(live).withoutVersion(), live)),
                        executor))
            .toArray(CompletableFuture[]::new);
    Futures.joined(CompletableFuture.allOf(lists));
    return new LiveObjects(found);
  }

  /** The live object, or null when it does not exist. */
  public GenericKubernetesResource get(ObjectRef ref) {
    return byRef.get(ref.withoutVersion());
  }

  private static List<GenericKubernetesResource> list(
      KubernetesClient client, ResourceType type, String namespace, Optional<Owner> owner) {
    try {
      var resources = client.genericKubernetesResources(type.context());
      FilterWatchListDeletable<GenericKubernetesResource, GenericKubernetesResourceList,
              Resource<GenericKubernetesResource>> scoped =
          type.namespaced() ? resources.inNamespace(namespace) : resources;
      var items = owner.map(o -> scoped.withLabels(o.labels())).orElse(scoped).list().getItems();
      // LIST items carry no apiVersion/kind; restore them so refs can be built.
      items.forEach(
          item -> {
            item.setApiVersion(type.apiVersion());
            item.setKind(type.kind());
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

  private static Optional<GenericKubernetesResource> get(KubernetesClient client, DesiredObject desired) {
    try {
      return Optional.ofNullable(
          client.genericKubernetesResources(desired.type().context()).withName(desired.ref().name()).get());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 403) {
        return Optional.empty(); // as for a LIST this identity may not make
      }
      throw e;
    }
  }
}
