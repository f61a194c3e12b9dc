package dev.capstan.applier.apply;

import dev.capstan.applier.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
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

  public static LiveObjects read(
      KubernetesClient client, Collection<DesiredObject> desired, Executor executor) {
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
                        () -> list(client, scope.type(), scope.namespace()).forEach(
                            live -> found.put(ObjectRef.of(live).withoutVersion(), live)),
                        executor))
            .toArray(CompletableFuture[]::new);
    CompletableFuture.allOf(lists).join();
    return new LiveObjects(found);
  }

  /** The live object, or null when it does not exist. */
  public GenericKubernetesResource get(ObjectRef ref) {
    return byRef.get(ref.withoutVersion());
  }

  private static List<GenericKubernetesResource> list(
      KubernetesClient client, ResourceType type, String namespace) {
    try {
      var resources = client.genericKubernetesResources(type.context());
      var items =
          type.namespaced()
              ? resources.inNamespace(namespace).list().getItems()
              : resources.list().getItems();
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
}
