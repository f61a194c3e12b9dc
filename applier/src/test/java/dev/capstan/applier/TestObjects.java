package dev.capstan.applier;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;

/** Builds generic objects from YAML text for tests. */
public final class TestObjects {

  private TestObjects() {}

  public static GenericKubernetesResource yaml(String yaml) {
    return Serialization.unmarshal(yaml, GenericKubernetesResource.class);
  }

  public static GenericKubernetesResource configMap(
      String namespace, String name, String key, String value) {
    return yaml(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
            + name
            + "\n  namespace: "
            + namespace
            + "\ndata:\n  "
            + key
            + ": \""
            + value
            + "\"\n");
  }
}
