package dev.capstan.applier.apply;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/**
 * LISTs that return each object's metadata only ({@code PartialObjectMetadataList}), which every
 * kind, built-in or custom, can be listed as.
 */
final class MetadataLists {

  private static final String ACCEPT =
      "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

  private final KubernetesClient client;
  private final ApiCalls api;

  MetadataLists(KubernetesClient client) {
    this.client = client;
    this.api = new ApiCalls(client);
  }

  /**
   * Objects of {@code type} with all of {@code labels}, in {@code namespace} (null: in all
   * namespaces; ignored for cluster-scoped kinds).
   */
  List<GenericKubernetesResource> list(
      ResourceType type, String namespace, Map<String, String> labels) {
    String url =
        api.url(type, namespace, null) + "?labelSelector=" + ApiCalls.labelSelector(labels);
    String body = api.send(api.request(url).header("Accept", ACCEPT).build()).body();
    GenericKubernetesResourceList list =
        client.getKubernetesSerialization().unmarshal(body, GenericKubernetesResourceList.class);
    return list == null || list.getItems() == null ? List.of() : list.getItems();
  }
}
