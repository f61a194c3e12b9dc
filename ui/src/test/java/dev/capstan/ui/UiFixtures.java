package dev.capstan.ui;

import dev.capstan.api.kustomize.Kustomization;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;

/** Kustomizations from YAML, as the API server would return them. */
final class UiFixtures {
  private UiFixtures() {}

  static Kustomization ks(String yaml) {
    return Serialization.unmarshal(yaml, Kustomization.class);
  }

  /**
   * A Kustomization with a Ready (and optionally Healthy) condition and dependsOn entries (YAML
   * flow list).
   */
  static Kustomization ks(
      String namespace,
      String name,
      String ready,
      String reason,
      String healthy,
      boolean suspend,
      String dependsOn) {
    List<String> conditions = new ArrayList<>();
    conditions.add(
        "{type: Ready, status: \""
            + ready
            + "\", reason: "
            + reason
            + ", message: \"m\", lastTransitionTime: \"2026-01-01T00:00:00Z\"}");
    if (healthy != null) {
      conditions.add(
          "{type: Healthy, status: \""
              + healthy
              + "\", reason: r, message: \"h\","
              + " lastTransitionTime: \"2026-01-02T00:00:00Z\"}");
    }
    return ks(
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: %s, namespace: %s}
        spec:
          sourceRef: {kind: GitRepository, name: repo}
          path: ./
          interval: 10m
          suspend: %s
          dependsOn: %s
        status:
          lastAppliedRevision: main@sha1:abc
          conditions: [%s]
        """
            .formatted(name, namespace, suspend, dependsOn, String.join(", ", conditions)));
  }
}
