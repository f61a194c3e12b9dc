package dev.capstan.cli.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TwinManifestTest {
  private final List<Manifest> flux = MigrationFixtures.load("flux-cluster.yaml");

  @Test
  void aKustomizationsTwinHasItsSpecUnderCapstansGroupsAndStartsSuspended() {
    Manifest apps = MigrationFixtures.named(flux, "Kustomization", "apps");

    GenericKubernetesResource twin = TwinManifest.capstanTwin(apps);

    assertEquals("kustomize.capstan.dev/v1", twin.getApiVersion());
    assertEquals("Kustomization", twin.getKind());
    assertEquals("flux-system", twin.getMetadata().getNamespace());
    Map<?, ?> spec = (Map<?, ?>) twin.getAdditionalProperties().get("spec");
    assertEquals(
        Map.of(
            "kind", "GitRepository", "name", "flux-system", "apiVersion", "source.capstan.dev/v1"),
        spec.get("sourceRef"));
    assertEquals(true, spec.get("suspend"));
    assertEquals("./apps/production", spec.get("path"));
    assertEquals(List.of(Map.of("name", "infra-configs")), spec.get("dependsOn"));
    assertNull(twin.getAdditionalProperties().get("status"));
    assertEquals(Map.of("team", "apps"), twin.getMetadata().getLabels());
    // suspended by the migration (so a rollback of a run that stopped halfway resumes Flux)
    assertEquals(
        Map.of(
            "note",
            "kept",
            Manifest.MIGRATED_FROM,
            "kustomize.toolkit.fluxcd.io/v1",
            Manifest.SUSPENDED_BY_MIGRATION,
            "true"),
        twin.getMetadata().getAnnotations());
    assertEquals(
        "source.toolkit.fluxcd.io/v1",
        ((Map<?, ?>) apps.spec().get("sourceRef")).get("apiVersion"),
        "the Flux object read is left as it was");
  }

  @Test
  void aSourcesTwinSharesItsSecretByNameAndRunsAtOnce() {
    GenericKubernetesResource twin =
        TwinManifest.capstanTwin(MigrationFixtures.named(flux, "GitRepository", "flux-system"));

    Map<?, ?> spec = (Map<?, ?>) twin.getAdditionalProperties().get("spec");
    assertEquals("source.capstan.dev/v1", twin.getApiVersion());
    assertEquals(Map.of("name", "git-credentials"), spec.get("secretRef"));
    assertFalse(spec.containsKey("suspend"));
    assertTrue(
        twin.getMetadata().getFinalizers() == null || twin.getMetadata().getFinalizers().isEmpty());
  }

  @Test
  void healthChecksOfFluxKindsAreRewrittenToCapstansGroups() {
    GenericKubernetesResource twin =
        TwinManifest.capstanTwin(
            MigrationFixtures.named(flux, "Kustomization", "infra-controllers"));

    List<?> checks =
        (List<?>) ((Map<?, ?>) twin.getAdditionalProperties().get("spec")).get("healthChecks");
    assertEquals("helm.capstan.dev/v2", ((Map<?, ?>) checks.get(0)).get("apiVersion"));
    assertEquals("kustomize.capstan.dev/v1", ((Map<?, ?>) checks.get(1)).get("apiVersion"));
  }

  @Test
  void aRollbackMakesTheFluxObjectBackFromTheTwin() {
    Manifest source = MigrationFixtures.named(flux, "GitRepository", "flux-system");
    Manifest twin = new Manifest(FluxKind.GIT_REPOSITORY, TwinManifest.capstanTwin(source));

    GenericKubernetesResource back = TwinManifest.fluxObject(twin);

    assertEquals("source.toolkit.fluxcd.io/v1", back.getApiVersion());
    assertEquals(source.spec(), back.getAdditionalProperties().get("spec"));
    assertTrue(back.getMetadata().getAnnotations().isEmpty());

    Manifest apps = MigrationFixtures.named(flux, "Kustomization", "apps");
    Map<?, ?> appsBack =
        (Map<?, ?>)
            TwinManifest.fluxObject(
                    new Manifest(FluxKind.KUSTOMIZATION, TwinManifest.capstanTwin(apps)))
                .getAdditionalProperties()
                .get("spec");
    assertEquals(
        "source.toolkit.fluxcd.io/v1", ((Map<?, ?>) appsBack.get("sourceRef")).get("apiVersion"));
    assertEquals(true, appsBack.get("suspend"), "held until the fields are handed back");
  }
}
