package dev.capstan.cli.objects;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** Test objects read from YAML, as they would come from the API server. */
final class TestObjects {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private TestObjects() {}

  static <T> T read(String yaml, Class<T> type) {
    return SERIALIZATION.unmarshal(yaml, type);
  }

  static GenericKubernetesResource generic(String yaml) {
    return read(yaml, GenericKubernetesResource.class);
  }
}
