package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Outcome;
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
    assertEquals(List.of("apps/podinfo"), fakes.remotesReached);
    assertEquals("apps/podinfo#1", fakes.trackedIn.get(NamespacedName.of(release)));

    assertEquals(Optional.empty(), pipeline.delete(release));
    assertEquals(1, fakes.deletedInventories.size());
    assertEquals(List.of("apps/podinfo", "apps/podinfo"), fakes.remotesReached);
  }

  @Test
  void aRemoteClusterThatCannotBeUsedFailsBeforeAnythingIsDone() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");
    fakes.remoteUnusable =
        new RemoteClusterException(
            "the kubeconfig in Secret 'apps/remote' key 'value' cannot be used: not YAML");

    Outcome outcome = fakes.pipeline().reconcile(release);

    Condition ready = ready(release);
    assertEquals("False RESTClientError", ready.getStatus() + " " + ready.getReason());
    assertEquals(
        "the kubeconfig in Secret 'apps/remote' key 'value' cannot be used: not YAML",
        ready.getMessage());
    assertTrue(outcome.requeueAfter().isPresent(), "retried: the Secret may be fixed");
    assertEquals(List.of(), fakes.actedAs);
    assertEquals(0, fakes.renders);
    assertEquals(0, fakes.applies);
    assertTrue(fakes.records.isEmpty());
  }

  @Test
  void aDeletionWaitsForAnUnreachableRemoteClusterAndNotForAGoneKubeconfig() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");
    HelmReleasePipeline pipeline = fakes.pipeline();
    pipeline.reconcile(release);

    fakes.remoteUnusable =
        new RemoteClusterException(
            "the API server of the remote cluster of Secret 'apps/remote' key 'value' cannot be"
                + " reached: connection refused");
    assertEquals(Optional.of(Duration.ofSeconds(10)), pipeline.delete(release));
    assertEquals(List.of(), fakes.deletedInventories);

    fakes.remoteUnusable = new RemoteClusterException("Secret 'apps/remote' does not exist", true);
    assertEquals(Optional.empty(), pipeline.delete(release));
    assertEquals(List.of(), fakes.deletedInventories);
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
