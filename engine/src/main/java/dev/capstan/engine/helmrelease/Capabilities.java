package dev.capstan.engine.helmrelease;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.List;

/** The cluster as a chart's {@code .Capabilities} see it. */
public interface Capabilities {
  Capabilities HELM_DEFAULTS =
      new Capabilities() {
        @Override
        public String kubeVersion() {
          return "";
        }

        @Override
        public List<String> apiVersions() {
          return List.of();
        }
      };

  /** The Capabilities of {@code client}'s cluster, from discovery, kept for a few minutes. */
  static Capabilities of(KubernetesClient client, Clock clock) {
    return new ClusterCapabilities(client, clock);
  }

  /** The API server's version ({@code v1.31.2}); empty for Helm's default. */
  String kubeVersion();

  /** The group versions the API server serves, added to Helm's default list. */
  List<String> apiVersions();
}
