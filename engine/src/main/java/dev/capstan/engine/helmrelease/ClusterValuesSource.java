package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.ValuesReference;
import dev.capstan.kube.ApiErrors;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The ConfigMaps ({@code data} only, as Flux reads them) and Secrets (through {@link SecretReader})
 * of a HelmRelease's {@code valuesFrom}, read with the HelmRelease's client.
 */
final class ClusterValuesSource implements ValuesSource {
  private final KubernetesClient client;
  private final SecretReader secrets;

  ClusterValuesSource(KubernetesClient client) {
    this.client = client;
    this.secrets = new SecretReader(client);
  }

  @Override
  public Optional<Map<String, byte[]>> data(
      ValuesReference.Kind kind, String namespace, String name) throws ValuesFailure {
    return kind == ValuesReference.Kind.Secret
        ? secret(namespace, name)
        : configMap(namespace, name);
  }

  private Optional<Map<String, byte[]>> secret(String namespace, String name) throws ValuesFailure {
    try {
      return Optional.of(secrets.read(namespace, name).values());
    } catch (SecretUnavailable e) {
      if (e.kind() == SecretUnavailable.Kind.NOT_FOUND) {
        return Optional.empty();
      }
      throw new ValuesFailure(e.getMessage());
    }
  }

  private Optional<Map<String, byte[]>> configMap(String namespace, String name)
      throws ValuesFailure {
    ConfigMap map;
    try {
      map = client.configMaps().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw new ValuesFailure(
          "cannot read ConfigMap '" + namespace + "/" + name + "': " + ApiErrors.refusal(e));
    }
    if (map == null) {
      return Optional.empty();
    }
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (map.getData() != null) {
      map.getData().forEach((k, v) -> data.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    return Optional.of(data);
  }
}
