package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.KubeConfigReference;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.remote.RemoteClusterException;
import dev.capstan.engine.remote.RemoteClusters.Remote;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which cluster a HelmRelease acts in, and as whom: its service account in the engine's cluster, or
 * in the remote cluster of spec.kubeConfig; a remote cluster that cannot be used fails with
 * RESTClientError and is never replaced by the engine's own.
 */
class ReleaseClustersTest {
  private static final NamespacedName DEPLOYER = new NamespacedName("apps", "deployer");

  private final Acting localActing = new Acting(null, null, null, null);
  private final Acting remoteActing = new Acting(null, null, null, null);
  private final List<Optional<NamespacedName>> localAccounts = new ArrayList<>();
  private final List<String> reached = new ArrayList<>();
  private final List<NamespacedName> forgotten = new ArrayList<>();
  private RemoteClusterException unusable;

  private final ReleaseClusters clusters =
      new ReleaseClusters(
          release -> Optional.of(DEPLOYER),
          account -> {
            localAccounts.add(account);
            return localActing;
          },
          new ReleaseClusters.Remotes() {
            @Override
            public Remote<Acting> reach(
                NamespacedName key, KubeConfigReference ref, Optional<NamespacedName> account) {
              reached.add(key + " " + ref.secretRef().name() + " as " + account.orElseThrow());
              if (unusable != null) {
                throw unusable;
              }
              return new Remote<>("apps/podinfo#1", "Secret 'apps/remote'", null, remoteActing);
            }

            @Override
            public void forget(NamespacedName key) {
              forgotten.add(key);
            }
          });

  @Test
  void withoutKubeConfigItActsInTheEnginesClusterAsItsServiceAccount() {
    ReleaseClusters.Target target = clusters.targetFor(ReleaseFakes.release());

    assertSame(localActing, target.acting());
    assertEquals(Optional.empty(), target.cluster());
    assertEquals(List.of(Optional.of(DEPLOYER)), localAccounts);
    assertEquals(List.of(), reached);
    // a kubeConfig removed from the spec leaves no remote client behind
    assertEquals(List.of(new NamespacedName("apps", "podinfo")), forgotten);
  }

  @Test
  void withKubeConfigItActsInTheRemoteClusterAsItsServiceAccountThere() {
    ReleaseClusters.Target target = clusters.targetFor(remoteRelease());

    assertSame(remoteActing, target.acting());
    assertEquals("apps/podinfo#1", target.cluster().orElseThrow().id());
    assertEquals(List.of("apps/podinfo remote as apps/deployer"), reached);
    assertEquals(List.of(), localAccounts, "nothing acts in the engine's own cluster");
  }

  @Test
  void aRemoteClusterThatCannotBeUsedFailsWithRestClientErrorAndNoLocalFallback() {
    unusable =
        new RemoteClusterException(
            "the kubeconfig in Secret 'apps/remote' key 'value' cannot be used: not YAML");

    ReleaseFailure failure =
        assertThrows(ReleaseFailure.class, () -> clusters.targetFor(remoteRelease()));

    assertEquals(ReleaseReason.REST_CLIENT_ERROR, failure.reason());
    assertEquals(
        "the kubeconfig in Secret 'apps/remote' key 'value' cannot be used: not YAML",
        failure.getMessage());
    assertFalse(failure.isReleaseFailure(), "no install was attempted: no retry is spent");
    assertFalse(failure.isStalled(), "retried: the Secret may be fixed");
    assertEquals(List.of(), localAccounts);
  }

  @Test
  void aDeletionWhoseKubeconfigIsGoneHasNoUninstallerAndAnUnreachableOneFails() {
    unusable = new RemoteClusterException("Secret 'apps/remote' does not exist", true);
    assertEquals(Optional.empty(), clusters.uninstallTargetFor(remoteRelease()));

    unusable =
        new RemoteClusterException(
            "the API server of the remote cluster of Secret 'apps/remote' key 'value' cannot be"
                + " reached: connection refused");
    ReleaseFailure failure =
        assertThrows(ReleaseFailure.class, () -> clusters.uninstallTargetFor(remoteRelease()));
    assertTrue(failure.getMessage().contains("cannot be reached"), failure.getMessage());
    assertEquals(List.of(), localAccounts);
  }

  @Test
  void aReachableRemoteClusterUninstallsThere() {
    assertSame(remoteActing, clusters.uninstallTargetFor(remoteRelease()).orElseThrow().acting());
  }

  static HelmRelease remoteRelease() {
    HelmRelease release = ReleaseFakes.releaseAt("remote/kubeconfig.yaml");
    assertEquals("remote", release.getSpec().kubeConfig().secretRef().name());
    return release;
  }
}
