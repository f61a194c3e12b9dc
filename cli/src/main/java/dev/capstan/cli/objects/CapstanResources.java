package dev.capstan.cli.objects;

import dev.capstan.cli.cluster.CliException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads and patches Kustomizations and GitRepositories, telling a missing object apart from a
 * cluster where Capstan's CRDs are not installed.
 */
final class CapstanResources {
  private final KubernetesClient client;

  CapstanResources(KubernetesClient client) {
    this.client = client;
  }

  <T extends HasMetadata> Resource<T> resource(CapstanKind<T> kind, String namespace, String name) {
    return client.resources(kind.type()).inNamespace(namespace).withName(name);
  }

  /** The object, or a {@link CliException} that says whether it or its API is missing. */
  <T extends HasMetadata> T get(CapstanKind<T> kind, String namespace, String name) {
    T object = guard(kind, () -> resource(kind, namespace, name).get());
    if (object == null) {
      requireInstalled(kind);
      throw new CliException(kind.kind() + " " + name + " not found in namespace " + namespace);
    }
    return object;
  }

  /** The object read as a {@link ResourceView}. */
  <T extends HasMetadata> ResourceView view(CapstanKind<T> kind, String namespace, String name) {
    return kind.view(get(kind, namespace, name));
  }

  /** Every object of the kind in a namespace, or in all namespaces when it is null; sorted. */
  <T extends HasMetadata> List<T> list(CapstanKind<T> kind, String namespace) {
    List<T> items =
        guard(
            kind,
            () ->
                namespace == null
                    ? client.resources(kind.type()).inAnyNamespace().list().getItems()
                    : client.resources(kind.type()).inNamespace(namespace).list().getItems());
    return items.stream()
        .sorted(
            Comparator.comparing((T o) -> o.getMetadata().getNamespace())
                .thenComparing(o -> o.getMetadata().getName()))
        .toList();
  }

  /** Applies a JSON merge patch (only the fields given change) and returns the patched object. */
  <T extends HasMetadata> T mergePatch(
      CapstanKind<T> kind, String namespace, String name, Map<String, Object> patch) {
    get(kind, namespace, name);
    String json = client.getKubernetesSerialization().asJson(patch);
    return guard(
        kind,
        () -> resource(kind, namespace, name).patch(PatchContext.of(PatchType.JSON_MERGE), json));
  }

  /** Fails with a clear line when the cluster does not serve the kind. */
  void requireInstalled(CapstanKind<?> kind) {
    if (!client.supports(kind.type())) {
      throw new CliException(
          "the "
              + kind.kind()
              + " API ("
              + kind.group()
              + "/v1) is not installed"
              + " on this cluster: install Capstan's CRDs with `kubectl apply -f deploy/crds`");
    }
  }

  private <R> R guard(CapstanKind<?> kind, Supplier<R> call) {
    try {
      return call.get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        requireInstalled(kind);
      }
      throw e;
    }
  }
}
