package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.remote.RemoteClusterException;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A HelmRelease acts as its service account for everything it does in the cluster, and the engine's
 * tenancy rules refuse what would let it reach past its namespace or cluster.
 */
class ReleaseTenancyTest {
  private final ReleaseFakes fakes = new ReleaseFakes();

  @Test
  void installAndUninstallActAsTheReleasesServiceAccount() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"serviceAccountName\":\"deployer\"}");
    HelmReleasePipeline pipeline = fakes.pipeline();

    pipeline.reconcile(release);
    pipeline.delete(release);

    assertEquals(List.of("deployer", "deployer"), fakes.actedAs);
    assertEquals(1, fakes.applies);
    assertEquals(1, fakes.deletedInventories.size());
  }

  @Test
  void aReleaseWithKubeConfigIsInstalledWatchedAndUninstalledInItsRemoteCluster()
      throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");
    HelmReleasePipeline pipeline = fakes.pipeline();

    pipeline.reconcile(release);

    assertEquals("True", ready(release).getStatus(), ready(release).getMessage());
    assertEquals(1, fakes.applies);
    assertTrue(fakes.actedIn.contains("remote apply"), fakes.actedIn.toString());
    assertTrue(fakes.actedIn.contains("remote record"), fakes.actedIn.toString());
    assertEquals(List.of("apps/podinfo"), fakes.remotesReached);
    assertEquals("apps/podinfo#1", fakes.trackedIn.get(NamespacedName.of(release)));

    assertEquals(Optional.empty(), pipeline.delete(release));
    assertEquals(1, fakes.deletedInventories.size());
    assertTrue(fakes.actedIn.contains("remote delete"), fakes.actedIn.toString());
    assertEquals(
        List.of(),
        fakes.actedIn.stream().filter(a -> a.startsWith("local")).toList(),
        "nothing is done in the engine's own cluster");
    assertEquals(List.of("apps/podinfo", "apps/podinfo"), fakes.remotesReached);
    assertEquals(List.of("apps/podinfo"), fakes.actorsForgotten);
  }

  @Test
  void aReleaseInARemoteClusterIsRenderedWithThatClustersCapabilities() throws IOException {
    HelmRelease local = ReleaseFakes.release();
    HelmRelease remote = ReleaseFakes.release();
    update(remote, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");
    HelmReleasePipeline pipeline = fakes.pipeline();

    pipeline.reconcile(local);
    pipeline.reconcile(remote);

    assertEquals("v1.36.0", fakes.requests.get(0).kubeVersion());
    assertEquals(List.of("v1", "local.example.com/v1"), fakes.requests.get(0).apiVersions());
    assertEquals("v1.34.2", fakes.requests.get(1).kubeVersion());
    assertEquals(List.of("v1", "remote.example.com/v1"), fakes.requests.get(1).apiVersions());
    assertEquals(List.of("apps/podinfo#1"), fakes.capabilitiesAsked);
  }

  @Test
  void aReleaseWithoutKubeConfigActsInTheEnginesClusterAlone() {
    HelmRelease release = ReleaseFakes.release();
    HelmReleasePipeline pipeline = fakes.pipeline();

    pipeline.reconcile(release);
    pipeline.delete(release);

    assertTrue(fakes.actedIn.containsAll(List.of("local apply", "local record", "local delete")));
    assertEquals(List.of(), fakes.actedIn.stream().filter(a -> a.startsWith("remote")).toList());
    assertEquals(List.of(), fakes.remotesReached);
  }

  @Test
  void aRemoteClusterThatCannotBeUsedFailsBeforeAnythingIsDoneAndBacksOff() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");
    fakes.remoteUnusable =
        new RemoteClusterException(
            "the kubeconfig in Secret 'apps/remote' key 'value' cannot be used: not YAML");
    HelmReleasePipeline pipeline = fakes.pipeline();

    Duration first = pipeline.reconcile(release).requeueAfter().orElseThrow();
    Duration second = pipeline.reconcile(release).requeueAfter().orElseThrow();
    Duration third = pipeline.reconcile(release).requeueAfter().orElseThrow();

    Condition ready = ready(release);
    assertEquals("False RESTClientError", ready.getStatus() + " " + ready.getReason());
    assertEquals(
        "the kubeconfig in Secret 'apps/remote' key 'value' cannot be used: not YAML",
        ready.getMessage());
    assertTrue(first.compareTo(second) < 0, first + " then " + second);
    assertTrue(second.compareTo(third) < 0, second + " then " + third);
    assertEquals(List.of(), fakes.actedIn);
    assertEquals(0, fakes.renders);
    assertEquals(0, fakes.applies);
    assertTrue(fakes.records.isEmpty());
  }

  @Test
  void aKubeConfigAddedToAnInstalledReleaseThatCannotBeUsedBacksOff() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    HelmReleasePipeline pipeline = fakes.pipeline();
    pipeline.reconcile(release);
    assertEquals("True", ready(release).getStatus(), ready(release).getMessage());

    update(release, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");
    release.getMetadata().setGeneration(2L);
    fakes.remoteUnusable = new RemoteClusterException("Secret 'apps/remote' does not exist", true);
    Duration first = pipeline.reconcile(release).requeueAfter().orElseThrow();
    Duration second = pipeline.reconcile(release).requeueAfter().orElseThrow();

    assertEquals(
        "False RESTClientError", ready(release).getStatus() + " " + ready(release).getReason());
    assertTrue(first.compareTo(second) < 0, first + " then " + second);
    assertEquals(2L, release.getStatus().failures());
    assertEquals(1L, release.getStatus().lastAttemptedGeneration());
  }

  @Test
  void aDeletionWaitsWithBackoffForAnUnusableRemoteClusterAndNotForAGoneKubeconfig()
      throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");
    HelmReleasePipeline pipeline = fakes.pipeline();
    pipeline.reconcile(release);

    fakes.remoteUnusable =
        new RemoteClusterException(
            "the API server of the remote cluster of Secret 'apps/remote' key 'value' cannot be"
                + " reached: connection refused");
    Duration first = pipeline.delete(release).orElseThrow();
    Duration second = pipeline.delete(release).orElseThrow();

    Condition ready = ready(release);
    assertEquals("False UninstallFailed", ready.getStatus() + " " + ready.getReason());
    assertTrue(ready.getMessage().contains("Secret 'apps/remote'"), ready.getMessage());
    assertTrue(first.compareTo(second) < 0, first + " then " + second);
    assertEquals(List.of(), fakes.deletedInventories);
    assertEquals(List.of(), fakes.actorsForgotten, "its client is kept while it waits");

    fakes.remoteUnusable = new RemoteClusterException("Secret 'apps/remote' does not exist", true);
    assertEquals(Optional.empty(), pipeline.delete(release));
    assertEquals(List.of(), fakes.deletedInventories);
    assertEquals(List.of("apps/podinfo"), fakes.actorsForgotten, "its client is let go");
  }

  @Test
  void aReleaseNeverInstalledGoesWithoutReachingItsRemoteCluster() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");
    fakes.remoteUnusable = new RemoteClusterException("Secret 'apps/remote' does not exist", true);
    HelmReleasePipeline pipeline = fakes.pipeline();
    pipeline.reconcile(release); // fails before anything is attempted
    fakes.remotesReached.clear();
    fakes.remoteUnusable =
        new RemoteClusterException(
            "the API server of the remote cluster of Secret 'apps/remote' key 'value' cannot be"
                + " reached: connection refused");

    assertEquals(Optional.empty(), pipeline.delete(release));
    assertEquals(Optional.empty(), fakes.pipeline().delete(ReleaseFakes.release()));

    assertEquals(List.of(), fakes.remotesReached);
    assertEquals(List.of(), fakes.actedIn);
    assertEquals(List.of("apps/podinfo", "apps/podinfo"), fakes.actorsForgotten);
  }

  @Test
  void aChartTemplateSourceInAnotherNamespaceIsRefusedWhenCrossNamespaceRefsAre()
      throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(
        release,
        "{\"chart\":{\"spec\":{\"chart\":\"podinfo\",\"sourceRef\":"
            + "{\"kind\":\"HelmRepository\",\"name\":\"podinfo\",\"namespace\":\"shared\"}}}}");
    fakes.noCrossNamespaceRefs = true;

    fakes.pipeline().reconcile(release);

    assertAccessDenied(release, "HelmRepository 'shared/podinfo'");
  }

  @Test
  void aChartRefInAnotherNamespaceIsRefusedWhenCrossNamespaceRefsAre() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode spec = mapper.valueToTree(release.getSpec());
    spec.remove("chart");
    spec.set(
        "chartRef",
        mapper.readTree("{\"kind\":\"OCIRepository\",\"name\":\"podinfo\",\"namespace\":\"x\"}"));
    release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
    fakes.noCrossNamespaceRefs = true;

    fakes.pipeline().reconcile(release);

    assertAccessDenied(release, "OCIRepository 'x/podinfo'");
  }

  @Test
  void aSourceInAnotherNamespaceIsTakenWhenCrossNamespaceRefsAreAllowed() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(
        release,
        "{\"chart\":{\"spec\":{\"chart\":\"podinfo\",\"sourceRef\":"
            + "{\"kind\":\"HelmRepository\",\"name\":\"podinfo\",\"namespace\":\"shared\"}}}}");

    fakes.pipeline().reconcile(release);

    assertEquals("True", ready(release).getStatus());
    assertEquals(1, fakes.renders);
  }

  private void assertAccessDenied(HelmRelease release, String source) {
    Condition ready = ready(release);
    assertEquals("False AccessDenied", ready.getStatus() + " " + ready.getReason());
    assertTrue(ready.getMessage().contains("cross-namespace references are not allowed"));
    assertTrue(ready.getMessage().contains(source), ready.getMessage());
    assertEquals(0, fakes.renders);
    assertEquals(0, fakes.applies);
  }

  private static Condition ready(HelmRelease release) {
    return HelmReleaseStatuses.condition(release.getStatus(), "Ready").orElseThrow();
  }

  private static void update(HelmRelease release, String json) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode spec = mapper.valueToTree(release.getSpec());
    spec.setAll((ObjectNode) mapper.readTree(json));
    release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
  }
}
