package dev.capstan.applier.apply;

import dev.capstan.kube.ApiVersion;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kinds the API server serves, from discovery: one request per group/version, cached for the
 * lifetime of the catalog (one apply, or one controller's discovery cycle), and optionally kept
 * between catalogs ({@link KeptDiscovery}).
 */
public class ResourceCatalog {

  private final KubernetesClient client;
  private final Optional<KeptDiscovery> kept;
  private final Map<String, Discovered> byGroupVersion = new ConcurrentHashMap<>();

  /** What discovery said of one group/version, and whether it was a kept answer. */
  private record Discovered(List<APIResource> resources, boolean wasKept) {}

  public ResourceCatalog(KubernetesClient client) {
    this(client, Optional.empty());
  }

  public ResourceCatalog(KubernetesClient client, Optional<KeptDiscovery> kept) {
    this.client = client;
    this.kept = kept;
  }

  public Optional<ResourceType> find(String apiVersion, String kind) {
    Discovered discovered = byGroupVersion.computeIfAbsent(apiVersion, this::discover);
    Optional<ResourceType> type = find(discovered.resources(), apiVersion, kind);
    if (type.isEmpty() && discovered.wasKept()) {
      // kept before the kind was served (a CRD created since): ask the API server itself
      discovered = byGroupVersion.compute(apiVersion, (v, old) -> discoverLive(v));
      type = find(discovered.resources(), apiVersion, kind);
    }
    return type;
  }

  private static Optional<ResourceType> find(
      List<APIResource> resources, String apiVersion, String kind) {
    ApiVersion parsed = ApiVersion.of(apiVersion);
    return resources.stream()
        .filter(r -> kind.equals(r.getKind()) && !r.getName().contains("/"))
        .findFirst()
        .map(
            r ->
                new ResourceType(
                    parsed.group(), parsed.version(), kind, r.getName(), r.getNamespaced()));
  }

  private Discovered discover(String apiVersion) {
    return kept.flatMap(
            cache ->
                cache.read(client.getMasterUrl(), apiVersion, client.getKubernetesSerialization()))
        .map(resources -> new Discovered(resources, true))
        .orElseGet(() -> discoverLive(apiVersion));
  }

  private Discovered discoverLive(String apiVersion) {
    List<APIResource> resources = ask(apiVersion);
    if (!resources.isEmpty()) {
      kept.ifPresent(
          cache ->
              cache.write(
                  client.getMasterUrl(),
                  apiVersion,
                  resources,
                  client.getKubernetesSerialization()));
    }
    return new Discovered(resources, false);
  }

  private List<APIResource> ask(String apiVersion) {
    try {
      APIResourceList list = client.getApiResources(apiVersion);
      return list == null || list.getResources() == null ? List.of() : list.getResources();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return List.of();
      }
      throw e;
    }
  }
}
