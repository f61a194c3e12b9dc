package dev.capstan.engine.helmrelease;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The Capabilities of the engine's cluster from discovery (the server's version and every group
 * version it serves, as Helm's install action reads them), asked at most once in {@link #TTL}. When
 * discovery fails, the last answer (or Helm's defaults) is used.
 */
final class ClusterCapabilities implements Capabilities {
  static final Duration TTL = Duration.ofMinutes(5);

  private record Answer(String kubeVersion, List<String> apiVersions, Instant at) {}

  private final KubernetesClient client;
  private final Clock clock;
  private volatile Answer answer;

  ClusterCapabilities(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  @Override
  public String kubeVersion() {
    return current().kubeVersion();
  }

  @Override
  public List<String> apiVersions() {
    return current().apiVersions();
  }

  private Answer current() {
    Answer kept = answer;
    Instant now = clock.instant();
    if (kept != null && now.isBefore(kept.at().plus(TTL))) {
      return kept;
    }
    try {
      answer = new Answer(client.getKubernetesVersion().getGitVersion(), groupVersions(), now);
    } catch (KubernetesClientException e) {
      if (kept == null) {
        return new Answer("", List.of(), now);
      }
    }
    return answer;
  }

  private List<String> groupVersions() {
    List<String> versions = new ArrayList<>(List.of("v1"));
    APIGroupList groups = client.getApiGroups();
    if (groups != null && groups.getGroups() != null) {
      for (APIGroup group : groups.getGroups()) {
        for (GroupVersionForDiscovery version : group.getVersions()) {
          versions.add(version.getGroupVersion());
        }
      }
    }
    return List.copyOf(versions);
  }
}
