package dev.capstan.cli.migrate;

import static dev.capstan.cli.migrate.Step.COPY_STATUS;
import static dev.capstan.cli.migrate.Step.CREATE_TWIN;
import static dev.capstan.cli.migrate.Step.DELETE_FLUX;
import static dev.capstan.cli.migrate.Step.SUSPEND_FLUX;
import static dev.capstan.cli.migrate.Step.WAIT_READY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The source kinds other than Git (OCIRepository, Bucket, ExternalArtifact, HelmRepository,
 * HelmChart), planned and twinned, with a HelmRelease whose HelmChart helm-controller made.
 */
class SourceKindsPlanTest {
  private static final List<Step> SOURCE_STEPS =
      List.of(SUSPEND_FLUX, CREATE_TWIN, WAIT_READY, DELETE_FLUX);

  private final List<Manifest> flux = MigrationFixtures.load("sources.yaml");
  private final MigrationPlan plan = Planner.migration(flux, List.of());

  @Test
  void everySourceKindIsPlannedInKindOrderBeforeTheChartsAndKustomizationsThatUseIt() {
    assertEquals(
        List.of(
            "GitRepository team/charts",
            "OCIRepository team/manifests",
            "Bucket team/minio",
            "HelmRepository team/charts",
            "HelmRepository team/stable",
            "ExternalArtifact team/generated",
            "HelmChart team/podinfo",
            "HelmChart team/podinfo-git",
            "HelmChart team/team-frontend",
            "Kustomization team/from-artifact",
            "Kustomization team/from-oci",
            "HelmRelease team/frontend"),
        plan.objects().stream().map(PlannedObject::title).toList());
    assertTrue(plan.blocked().isEmpty());
  }

  @Test
  void ociBucketHelmRepositoryAndHelmChartAreSuspendedTwinnedWaitedForAndDeleted() {
    for (String title :
        List.of(
            "OCIRepository team/manifests",
            "Bucket team/minio",
            "HelmRepository team/charts",
            "HelmChart team/podinfo",
            "HelmChart team/podinfo-git")) {
      PlannedObject object = find(title);
      assertEquals(Outcome.MIGRATE, object.outcome(), title);
      assertEquals(SOURCE_STEPS, object.steps(), title);
      assertEquals(List.of(), object.differences(), title);
    }
  }

  @Test
  void anExternalArtifactIsTwinnedWithItsArtifactCopiedAndNeitherSuspendedNorWaitedFor() {
    PlannedObject artifact = find("ExternalArtifact team/generated");

    assertEquals(List.of(CREATE_TWIN, COPY_STATUS, DELETE_FLUX), artifact.steps());
    assertEquals(
        "different status.artifact: copied once to the twin; its producer (ArtifactGenerator)"
            + " must write source.capstan.dev ExternalArtifacts from now on",
        artifact.differences().get(0).toString());
    assertEquals(
        "spec.sourceRef.kind",
        find("Kustomization team/from-artifact").differences().get(0).field());
  }

  @Test
  void theHelmReleaseMigratesItsChartIsLeftToItAndItsRepositoryIsNotShared() {
    assertEquals(Outcome.MIGRATE, find("HelmRelease team/frontend").outcome());
    assertEquals(Outcome.NOT_MIGRATED, find("HelmChart team/team-frontend").outcome());
    PlannedObject stable = find("HelmRepository team/stable");
    assertEquals(Outcome.MIGRATE, stable.outcome());
    assertEquals(SOURCE_STEPS, stable.steps());
  }

  @Test
  void theTwinsKeepTheirSpecsUnderCapstansGroupWithSecretsNamedInPlace() {
    Map<?, ?> oci = twinSpec("OCIRepository", "manifests");
    assertEquals(Map.of("name", "registry-credentials"), oci.get("secretRef"));
    assertEquals(
        Map.of("provider", "cosign", "secretRef", Map.of("name", "cosign-pub")), oci.get("verify"));
    assertEquals("extract", ((Map<?, ?>) oci.get("layerSelector")).get("operation"));
    assertEquals(Map.of("semver", ">=1.0.0"), oci.get("ref"));
    assertEquals(Map.of("name", "minio-credentials"), twinSpec("Bucket", "minio").get("secretRef"));
    assertEquals(
        Map.of("name", "chart-credentials"), twinSpec("HelmRepository", "charts").get("secretRef"));
    assertEquals(
        Map.of("kind", "GitRepository", "name", "charts"),
        twinSpec("HelmChart", "podinfo-git").get("sourceRef"));

    GenericKubernetesResource artifact =
        TwinManifest.capstanTwin(MigrationFixtures.named(flux, "ExternalArtifact", "generated"));
    assertEquals("source.capstan.dev/v1", artifact.getApiVersion());
    assertNull(artifact.getAdditionalProperties().get("status"), "copied by its own step");
    Map<?, ?> producer =
        (Map<?, ?>) ((Map<?, ?>) artifact.getAdditionalProperties().get("spec")).get("sourceRef");
    assertEquals("source.extensions.fluxcd.io/v1beta1", producer.get("apiVersion"));
    GenericKubernetesResource ociTwin =
        TwinManifest.capstanTwin(MigrationFixtures.named(flux, "OCIRepository", "manifests"));
    assertTrue(
        ociTwin.getMetadata().getFinalizers() == null
            || ociTwin.getMetadata().getFinalizers().isEmpty());
    assertFalse(((Map<?, ?>) ociTwin.getAdditionalProperties().get("spec")).containsKey("suspend"));
  }

  private Map<?, ?> twinSpec(String kind, String name) {
    GenericKubernetesResource twin =
        TwinManifest.capstanTwin(MigrationFixtures.named(flux, kind, name));
    assertEquals("source.capstan.dev/v1", twin.getApiVersion());
    return (Map<?, ?>) twin.getAdditionalProperties().get("spec");
  }

  private PlannedObject find(String title) {
    return plan.objects().stream().filter(o -> o.title().equals(title)).findFirst().orElseThrow();
  }
}
