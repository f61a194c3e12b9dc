package dev.capstan.cli.migrate;

import static dev.capstan.cli.migrate.Step.CREATE_FLUX;
import static dev.capstan.cli.migrate.Step.CREATE_TWIN;
import static dev.capstan.cli.migrate.Step.DELETE_FLUX;
import static dev.capstan.cli.migrate.Step.DELETE_FLUX_CHART;
import static dev.capstan.cli.migrate.Step.DELETE_TWIN;
import static dev.capstan.cli.migrate.Step.DELETE_TWIN_CHART;
import static dev.capstan.cli.migrate.Step.RESUME_FLUX;
import static dev.capstan.cli.migrate.Step.SUSPEND_FLUX;
import static dev.capstan.cli.migrate.Step.SUSPEND_TWIN;
import static dev.capstan.cli.migrate.Step.WAIT_READY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** HelmReleases planned, twinned and handed back (helm-releases*.yaml). */
class HelmReleasePlanTest {
  private final List<Manifest> flux = MigrationFixtures.load("helm-releases.yaml");
  private final MigrationPlan plan = Planner.migration(flux, List.of());

  @Test
  void helmReleasesComeAfterTheirSourcesAndDependenciesAndBeforeWhatHealthChecksThem() {
    assertEquals(
        List.of(
            "OCIRepository apps/backend-chart",
            "HelmRepository apps/charts",
            "HelmChart apps/apps-frontend",
            "HelmRelease apps/frontend",
            "Kustomization apps/smoke",
            "HelmRelease apps/backend"),
        plan.objects().stream().map(PlannedObject::title).toList());
    assertTrue(plan.blocked().isEmpty());
    assertEquals(Outcome.MIGRATE, find("HelmRepository apps/charts").outcome(), "not shared");
  }

  @Test
  void aHelmReleaseIsSuspendedTwinnedWaitedForAndDeletedWithTheChartHelmControllerMadeForIt() {
    PlannedObject frontend = find("HelmRelease apps/frontend");
    assertEquals(Outcome.MIGRATE, frontend.outcome());
    assertEquals(
        List.of(SUSPEND_FLUX, CREATE_TWIN, WAIT_READY, DELETE_FLUX_CHART, DELETE_FLUX),
        frontend.steps());
    PlannedObject chart = find("HelmChart apps/apps-frontend");
    assertEquals(Outcome.NOT_MIGRATED, chart.outcome());
    assertTrue(chart.steps().isEmpty(), "deleted by its HelmRelease's step, not twinned");
    assertEquals(
        "made by helm-controller for HelmRelease apps/frontend: Capstan's HelmRelease makes its"
            + " own HelmChart, and this one is deleted when that HelmRelease migrates",
        chart.reason());
    assertEquals(
        List.of(SUSPEND_FLUX, CREATE_TWIN, WAIT_READY, DELETE_FLUX),
        find("HelmRelease apps/backend").steps(),
        "a chartRef: no HelmChart of helm-controller's to delete");
  }

  @Test
  void theFieldsCapstanTreatsDifferentlyAreNamed() {
    assertEquals(
        List.of(
            "rewritten spec.chart.spec.sourceRef.apiVersion: becomes source.capstan.dev/v1",
            "different spec.test.enable: Helm tests are not run yet",
            "different status.history: the twin adopts the existing release (same name and"
                + " storage namespace, objects patched in place): its first reconcile records it"
                + " as one new Helm revision, an upgrade with the same chart and values"),
        texts(find("HelmRelease apps/frontend")));
    List<String> backend = texts(find("HelmRelease apps/backend"));
    // its drift detection is migrated as it is: Capstan looks for drift as Flux does
    assertEquals(2, backend.size(), backend::toString);
    assertEquals(
        "rewritten spec.chartRef.apiVersion: becomes source.capstan.dev/v1", backend.get(0));
  }

  @Test
  void aRemoteClusterIsMigratedNamingHowItDiffers() {
    MigrationPlan remote =
        Planner.migration(MigrationFixtures.load("helm-release-remote.yaml"), List.of());

    PlannedObject release = remote.objects().get(0);
    assertNotEquals(Outcome.BLOCKED, release.outcome());
    assertEquals("spec.kubeConfig", release.differences().get(0).field());
    assertEquals(Difference.Treatment.DIFFERENT, release.differences().get(0).treatment());
    assertFalse(release.steps().isEmpty());
  }

  @Test
  void theTwinKeepsTheSpecWithReferencesRewrittenAndValuesObjectsNamedInPlace() {
    GenericKubernetesResource frontend =
        TwinManifest.capstanTwin(MigrationFixtures.named(flux, "HelmRelease", "frontend"));
    assertEquals("helm.capstan.dev/v2", frontend.getApiVersion());
    assertEquals("HelmRelease", frontend.getKind());
    assertEquals(Map.of("team", "web"), frontend.getMetadata().getLabels());
    assertTrue(
        frontend.getMetadata().getFinalizers() == null
            || frontend.getMetadata().getFinalizers().isEmpty(),
        "helm-controller's finalizer is not copied");
    assertNull(frontend.getAdditionalProperties().get("status"));
    Map<?, ?> spec = spec(frontend);
    assertFalse(spec.containsKey("suspend"), "runs at once: nothing to hand over first");
    assertEquals("web", spec.get("releaseName"));
    assertEquals("apps", spec.get("storageNamespace"));
    assertEquals(Map.of("replicaCount", 2), spec.get("values"));
    assertEquals(
        Map.of("apiVersion", "source.capstan.dev/v1", "kind", "HelmRepository", "name", "charts"),
        ((Map<?, ?>) ((Map<?, ?>) spec.get("chart")).get("spec")).get("sourceRef"));

    Map<?, ?> backend =
        spec(TwinManifest.capstanTwin(MigrationFixtures.named(flux, "HelmRelease", "backend")));
    assertEquals(
        Map.of(
            "apiVersion",
            "source.capstan.dev/v1",
            "kind",
            "OCIRepository",
            "name",
            "backend-chart"),
        backend.get("chartRef"));
    assertEquals(
        List.of(
            Map.of("kind", "Secret", "name", "backend-values", "valuesKey", "values.yaml"),
            Map.of("kind", "ConfigMap", "name", "backend-settings", "targetPath", "settings.mode")),
        backend.get("valuesFrom"));
    assertEquals(List.of(Map.of("name", "frontend")), backend.get("dependsOn"));
    Map<?, ?> smoke =
        spec(TwinManifest.capstanTwin(MigrationFixtures.named(flux, "Kustomization", "smoke")));
    assertEquals(
        List.of(
            Map.of("apiVersion", "helm.capstan.dev/v2", "kind", "HelmRelease", "name", "frontend")),
        smoke.get("healthChecks"));
  }

  @Test
  void aRunKilledAfterTheTwinWasMadeWaitsForItAndDeletesTheFluxSide() {
    List<Manifest> halfway = new ArrayList<>(flux);
    Manifest frontend = MigrationFixtures.named(flux, "HelmRelease", "frontend");
    frontend.object().getMetadata().setAnnotations(Map.of(Manifest.SUSPENDED_BY_MIGRATION, "true"));
    Map<String, Object> spec = new LinkedHashMap<>();
    frontend.spec().forEach((k, v) -> spec.put(String.valueOf(k), v));
    spec.put("suspend", true);
    frontend.object().setAdditionalProperty("spec", spec);

    MigrationPlan again =
        Planner.migration(halfway, MigrationFixtures.load("helm-releases-capstan.yaml"));

    PlannedObject continued = find(again, "HelmRelease apps/frontend");
    assertEquals(Outcome.CONTINUE, continued.outcome());
    assertEquals(List.of(WAIT_READY, DELETE_FLUX_CHART, DELETE_FLUX), continued.steps());
    assertEquals(
        Outcome.NOT_MIGRATED,
        find(again, "HelmChart apps/apps-frontend").outcome(),
        "Capstan's own HelmChart of the same name does not block the Flux one");
  }

  @Test
  void aSecondRunHasNothingToDoAndCapstansOwnHelmChartIsNotListed() {
    MigrationPlan second =
        Planner.migration(List.of(), MigrationFixtures.load("helm-releases-capstan.yaml"));

    assertEquals(
        List.of("HelmRelease apps/frontend"),
        second.objects().stream().map(PlannedObject::title).toList());
    assertTrue(second.nothingToDo());
  }

  @Test
  void aRollbackRecreatesTheFluxHelmReleaseAndDeletesTheTwinAndCapstansHelmChart() {
    List<Manifest> twins = MigrationFixtures.load("helm-releases-capstan.yaml");
    MigrationPlan back = Planner.rollback(List.of(), twins);

    assertEquals(1, back.objects().size());
    assertEquals(
        List.of(SUSPEND_TWIN, CREATE_FLUX, RESUME_FLUX, DELETE_TWIN, DELETE_TWIN_CHART),
        back.objects().get(0).steps());
    GenericKubernetesResource fluxObject =
        TwinManifest.fluxObject(MigrationFixtures.named(twins, "HelmRelease", "frontend"));
    assertEquals("helm.toolkit.fluxcd.io/v2", fluxObject.getApiVersion());
    assertEquals(
        "source.toolkit.fluxcd.io/v1",
        ((Map<?, ?>)
                ((Map<?, ?>) ((Map<?, ?>) spec(fluxObject).get("chart")).get("spec"))
                    .get("sourceRef"))
            .get("apiVersion"));
  }

  @Test
  void withOneNamespaceASourceElsewhereWaitsForItsTwinAndIsKeptForTheHelmRelease() {
    List<Manifest> cluster = MigrationFixtures.load("flux-cluster.yaml");

    PlannedObject release =
        find(
            Planner.migration(cluster, List.of(), Optional.of("podinfo")),
            "HelmRelease" + " podinfo/podinfo");
    assertEquals(Outcome.BLOCKED, release.outcome());
    assertTrue(
        release.reason().startsWith("its source HelmRepository flux-system/podinfo is outside"),
        release.reason());

    MigrationPlan sources = Planner.migration(cluster, List.of(), Optional.of("flux-system"));
    PlannedObject repository = find(sources, "HelmRepository flux-system/podinfo");
    assertEquals(Outcome.SHARED, repository.outcome());
    assertEquals(
        "used by HelmRelease podinfo/podinfo, which -n flux-system leaves with Flux",
        repository.reason());
    assertEquals(
        Outcome.NOT_MIGRATED, find(sources, "HelmChart flux-system/podinfo-podinfo").outcome());
  }

  private static Map<?, ?> spec(GenericKubernetesResource object) {
    return (Map<?, ?>) object.getAdditionalProperties().get("spec");
  }

  private static List<String> texts(PlannedObject object) {
    return object.differences().stream().map(Difference::toString).toList();
  }

  private PlannedObject find(String title) {
    return find(plan, title);
  }

  private static PlannedObject find(MigrationPlan plan, String title) {
    return plan.objects().stream().filter(o -> o.title().equals(title)).findFirst().orElseThrow();
  }
}
