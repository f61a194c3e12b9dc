package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.IOException;
import java.util.List;
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
  void aRemoteClusterIsRefusedByNameBeforeAnythingIsDone() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"kubeConfig\":{\"secretRef\":{\"name\":\"remote\"}}}");

    fakes.pipeline().reconcile(release);

    Condition ready = ready(release);
    assertEquals("False InitFailed", ready.getStatus() + " " + ready.getReason());
    assertTrue(ready.getMessage().contains("spec.kubeConfig"), ready.getMessage());
    assertEquals(List.of(), fakes.actedAs);
    assertEquals(0, fakes.renders);
    assertTrue(fakes.records.isEmpty());
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
