package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The chart's crds/ as Helm treats them: written by the action's crds policy, kept out of the
 * release's manifest and inventory, never pruned and left by an uninstall.
 */
class ReleaseCrdsTest {
  private static final String CRD = "widgets.example.com";

  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  ReleaseCrdsTest() {
    fakes.crds = ReleaseFakes.read("crds.yaml");
  }

  @Test
  void theManifestIsSplitAtTheChartsAndSubchartsCrdsFiles() {
    String manifest =
        "---\n# Source: app/crds/a.yaml\nkind: A\n"
            + "---\n# Source: app/charts/sub/crds/b.yaml\nkind: B\n"
            + "---\n# Source: app/templates/crds/c.yaml\nkind: C\n";

    ReleaseCrds.Split split = ReleaseCrds.split(manifest);

    assertEquals(
        "---\n# Source: app/crds/a.yaml\nkind: A\n"
            + "---\n# Source: app/charts/sub/crds/b.yaml\nkind: B\n",
        split.crds());
    assertEquals("---\n# Source: app/templates/crds/c.yaml\nkind: C\n", split.manifest());
  }

  @Test
  void installAndUpgradeWithTheDefaultsKeepTheCrdOutOfTheInventoryAndNeverPruneIt()
      throws IOException {
    HelmRelease release = ReleaseFakes.release();

    pipeline.reconcile(release);

    assertEquals(Set.of(CRD), fakes.crdsInCluster);
    assertEquals(1, fakes.crdWrites);
    assertEquals(2, release.getStatus().inventory().entries().size());
    assertFalse(fakes.records.get(1).release().manifest().contains("CustomResourceDefinition"));

    release.getMetadata().setGeneration(2L);
    update(release, "{\"values\":{\"replicaCount\":2}}");
    pipeline.reconcile(release);

    assertEquals(2, fakes.records.size());
    assertEquals(Set.of(CRD), fakes.crdsInCluster);
    assertEquals(1, fakes.crdWrites, "upgrade's default crds policy is Skip");
    assertTrue(
        release.getStatus().inventory().entries().stream()
            .noneMatch(e -> e.id().contains("CustomResourceDefinition")));
  }

  @Test
  void createWritesOnlyAnAbsentCrdAndCreateReplaceWritesItAgain() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    fakes.crdsInCluster.add(CRD);

    pipeline.reconcile(release);
    assertEquals(0, fakes.crdWrites, "Create never updates a CRD that is there");

    release.getMetadata().setGeneration(2L);
    update(release, "{\"upgrade\":{\"crds\":\"CreateReplace\"},\"values\":{\"replicaCount\":2}}");
    pipeline.reconcile(release);
    assertEquals(1, fakes.crdWrites);
  }

  @Test
  void uninstallLeavesTheCrd() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    pipeline.delete(release);

    assertEquals(Set.of(CRD), fakes.crdsInCluster);
    assertEquals(List.of(), List.copyOf(fakes.records.keySet()));
  }

  private static void update(HelmRelease release, String json) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode spec = mapper.valueToTree(release.getSpec());
    spec.setAll((ObjectNode) mapper.readTree(json));
    release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
  }
}
