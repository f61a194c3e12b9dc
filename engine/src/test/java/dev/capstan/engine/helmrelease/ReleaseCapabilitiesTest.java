package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.capstan.engine.kustomization.HealthTracking.RemoteCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A release is rendered with the Capabilities of the cluster it is installed in: the engine's own,
 * or its remote cluster's, asked once per remote client and kept within a bound.
 */
class ReleaseCapabilitiesTest {
  private final List<String> asked = new ArrayList<>();
  private final ReleaseCapabilities capabilities =
      new ReleaseCapabilities(
          Capabilities.HELM_DEFAULTS,
          remote -> {
            asked.add(remote.id());
            return new Named(remote.id());
          });

  @Test
  void theEnginesClusterIsAskedNothingMore() {
    assertSame(Capabilities.HELM_DEFAULTS, capabilities.of(Optional.empty()));
    assertEquals(List.of(), asked);
  }

  @Test
  void aRemoteClusterIsAskedOncePerClientAndAgainWhenItsClientIsNew() {
    assertEquals("v-a#1", capabilities.of(remote("a#1")).kubeVersion());
    assertEquals("v-a#1", capabilities.of(remote("a#1")).kubeVersion());
    // its kubeconfig changed: the engine built another client, which is another cluster maybe
    assertEquals("v-a#2", capabilities.of(remote("a#2")).kubeVersion());
    assertEquals(List.of("a#1", "a#2"), asked);
  }

  @Test
  void theLeastRecentlyUsedRemoteIsAskedAgainPastTheBound() {
    capabilities.of(remote("first"));
    for (int i = 0; i < ReleaseCapabilities.MAX_REMOTES; i++) {
      capabilities.of(remote("r" + i));
    }
    capabilities.of(remote("r0"));
    assertEquals(ReleaseCapabilities.MAX_REMOTES + 1, asked.size());

    capabilities.of(remote("first"));

    assertEquals(ReleaseCapabilities.MAX_REMOTES + 2, asked.size());
  }

  private static Optional<RemoteCluster> remote(String id) {
    return Optional.of(new RemoteCluster(id, null));
  }

  private record Named(String id) implements Capabilities {
    @Override
    public String kubeVersion() {
      return "v-" + id;
    }

    @Override
    public List<String> apiVersions() {
      return List.of();
    }
  }
}
