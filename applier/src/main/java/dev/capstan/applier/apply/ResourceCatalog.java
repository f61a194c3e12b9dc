package dev.capstan.applier.apply;

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
 * lifetime of the catalog (one apply, or one controller's discovery cycle).
 */
public class ResourceCatalog {

  private final KubernetesClient client;
  private final Map<String, List<APIResource>> byGroupVersion = new ConcurrentHashMap<>();

  public ResourceCatalog(KubernetesClient client) {
    this.client = client;
  }

  public Optional<ResourceType> find(String apiVersion, String kind) {
    List<APIResource> resources = byGroupVersion.computeIfAbsent(apiVersion, this::discover);
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
    return resources.stream()
        .filter(r -> kind.equals(r.getKind()) && !r.getName().contains("/"))
        .findFirst()
        .map(r -> new ResourceType(group, version, kind, r.getName(), r.getNamespaced()));
  }

  /** Forgets what discovery said, e.g. after CRDs were created. */
  public void refresh() {
    byGroupVersion.clear();
  }

  private List<APIResource> discover(String apiVersion) {
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
