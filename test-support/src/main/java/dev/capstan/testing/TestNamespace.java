package dev.capstan.testing;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** A namespace created for one test class and deleted after it. */
public record TestNamespace(String name) {

  /** Creates namespace {@code name}, labelled as a test's, in the cluster of {@code client}. */
  static TestNamespace create(KubernetesClient client, String name) {
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("capstan.dev/test", "true")
                .endMetadata()
                .build())
        .create();
    return new TestNamespace(name);
  }
}
