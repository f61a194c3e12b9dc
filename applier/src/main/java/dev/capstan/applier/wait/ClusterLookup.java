package dev.capstan.applier.wait;

import dev.capstan.applier.apply.DesiredObject;
import dev.capstan.applier.apply.KeptDiscovery;
import dev.capstan.applier.apply.ResourceCatalog;
import dev.capstan.applier.apply.ResourceType;
import dev.capstan.kube.ApiErrors;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/**
 * Reads objects straight from the API server, so that an object applied a moment ago is never
 * judged by its previous version. One lookup asks discovery once per group/version (or reads the
 * kept answer): a new one is made for each look, so that a kind served since is found.
 */
final class ClusterLookup implements ObjectLookup {
  private final KubernetesClient client;
  private final ResourceCatalog catalog;

  ClusterLookup(KubernetesClient client, KeptDiscovery discovery) {
    this.client = client;
    this.catalog = new ResourceCatalog(client, Optional.of(discovery));
  }

  @Override
  public Lookup find(ObjectRef ref) {
    try {
      Optional<ResourceType> type = catalog.find(ref.apiVersion(), ref.kind());
      if (type.isEmpty()) {
        return Lookup.kindNotServed(ref.apiVersion(), ref.kind());
      }
      var resources = client.genericKubernetesResources(type.get().context());
      GenericKubernetesResource live =
          type.get().namespaced()
              ? resources.inNamespace(ref.namespace()).withName(ref.name()).get()
              : resources.withName(ref.name()).get();
      return live == null ? Lookup.notFound() : Lookup.found(DesiredObject.asMap(live));
    } catch (KubernetesClientException e) {
      return Lookup.readFailed(ApiErrors.reason(e));
    }
  }
}
