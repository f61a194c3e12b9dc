package dev.capstan.cli.migrate;

import static dev.capstan.cli.migrate.Step.CREATE_FLUX;
import static dev.capstan.cli.migrate.Step.CREATE_TWIN;
import static dev.capstan.cli.migrate.Step.DELETE_FLUX;
import static dev.capstan.cli.migrate.Step.DELETE_TWIN;
import static dev.capstan.cli.migrate.Step.HAND_OVER;
import static dev.capstan.cli.migrate.Step.RESUME_FLUX;
import static dev.capstan.cli.migrate.Step.RESUME_TWIN;
import static dev.capstan.cli.migrate.Step.SUSPEND_FLUX;
import static dev.capstan.cli.migrate.Step.SUSPEND_TWIN;
import static dev.capstan.cli.migrate.Step.WAIT_READY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code -n NS} with a Kustomization in namespace apps whose sourceRef names a GitRepository in
 * namespace fleet: migrating apps alone, fleet alone, one after the other, both at once, and back.
 */
class CrossNamespacePlanTest {
  private final List<Manifest> flux = MigrationFixtures.load("cross-namespace.yaml");

  @Test
  void migratingOnlyTheUsersNamespaceIsBlockedUntilTheSourceHasATwin() {
    MigrationPlan plan = Planner.migration(flux, List.of(), Optional.of("apps"));

    assertEquals(List.of("Kustomization apps/podinfo"), titles(plan));
    PlannedObject podinfo = plan.objects().get(0);
    assertEquals(Outcome.BLOCKED, podinfo.outcome());
    assertEquals(
        "its source GitRepository fleet/fleet is outside -n apps and has no Capstan twin yet:"
            + " migrate -n fleet first (its Flux object is kept running for this one), or both"
            + " namespaces together without -n",
        podinfo.reason());
    assertTrue(podinfo.steps().isEmpty());
    assertEquals(1, plan.blocked().size());
    assertTrue(print(plan).contains("Kustomization apps/podinfo: blocked: its source"));
  }

  @Test
  void migratingOnlyTheSourcesNamespaceKeepsTheFluxSourceRunningForTheOtherNamespace() {
    MigrationPlan plan = Planner.migration(flux, List.of(), Optional.of("fleet"));

    assertEquals(List.of("GitRepository fleet/fleet", "Kustomization fleet/infra"), titles(plan));
    PlannedObject source = plan.objects().get(0);
    assertEquals(Outcome.SHARED, source.outcome());
    assertEquals(
        "used by Kustomization apps/podinfo, which -n fleet leaves with Flux", source.reason());
    assertEquals(List.of(CREATE_TWIN, WAIT_READY), source.steps());
    assertEquals(
        List.of(SUSPEND_FLUX, CREATE_TWIN, HAND_OVER, RESUME_TWIN, WAIT_READY, DELETE_FLUX),
        plan.objects().get(1).steps());
  }

  @Test
  void aSharedSourceThatAnEarlierRunSuspendedIsResumedForItsFluxUser() {
    Manifest source = MigrationFixtures.named(flux, "GitRepository", "fleet");
    source.object().getMetadata().setAnnotations(Map.of(Manifest.SUSPENDED_BY_MIGRATION, "true"));
    source.object().getAdditionalProperties().put("spec", Map.of("suspend", true));

    MigrationPlan plan = Planner.migration(flux, List.of(), Optional.of("fleet"));

    assertEquals(List.of(RESUME_FLUX, CREATE_TWIN, WAIT_READY), plan.objects().get(0).steps());
  }

  @Test
  void whenTheOtherNamespacesCannotBeReadEverySourceKeepsRunningForFlux() {
    List<Manifest> fleetOnly = flux.stream().filter(o -> o.namespace().equals("fleet")).toList();

    MigrationPlan unseen = Planner.migration(fleetOnly, List.of(), Optional.of("fleet"), false);
    MigrationPlan seen = Planner.migration(fleetOnly, List.of(), Optional.of("fleet"), true);

    assertEquals("GitRepository fleet/fleet", titles(unseen).get(0));
    assertEquals(Outcome.SHARED, unseen.objects().get(0).outcome());
    assertEquals(
        "used by objects in namespaces this identity may not list, which -n fleet leaves with"
            + " Flux",
        unseen.objects().get(0).reason());
    assertEquals(List.of(CREATE_TWIN, WAIT_READY), unseen.objects().get(0).steps());
    assertNotEquals(Outcome.SHARED, seen.objects().get(0).outcome());
  }

  @Test
  void aSharedTwinThatAKilledRollbackSuspendedIsResumedForItsCapstanUser() {
    List<Manifest> twins = twins(Planner.migration(flux, List.of()));
    Manifest source = MigrationFixtures.named(twins, "GitRepository", "fleet");
    Map<String, String> annotations = new HashMap<>(source.object().getMetadata().getAnnotations());
    annotations.put(Manifest.SUSPENDED_BY_MIGRATION, "true");
    source.object().getMetadata().setAnnotations(annotations);
    Map<Object, Object> spec = new HashMap<>(source.spec());
    spec.put("suspend", true);
    source.object().getAdditionalProperties().put("spec", spec);

    MigrationPlan plan = Planner.rollback(List.of(), twins, Optional.of("fleet"));

    assertEquals(Outcome.ROLL_BACK_SHARED, plan.objects().get(0).outcome());
    assertTrue(plan.objects().get(0).steps().contains(RESUME_TWIN), plan.objects()::toString);
  }

  @Test
  void oneNamespaceAfterTheOtherEndsWithTheFluxSourceGone() {
    List<Manifest> fleetTwins = twins(Planner.migration(flux, List.of(), Optional.of("fleet")));
    List<Manifest> afterFleet = without(flux, "Kustomization", "infra");

    MigrationPlan apps = Planner.migration(afterFleet, fleetTwins, Optional.of("apps"));

    assertEquals(Outcome.MIGRATE, apps.objects().get(0).outcome());
    assertEquals(
        List.of(SUSPEND_FLUX, CREATE_TWIN, HAND_OVER, RESUME_TWIN, WAIT_READY, DELETE_FLUX),
        apps.objects().get(0).steps());

    List<Manifest> afterApps = without(afterFleet, "Kustomization", "podinfo");
    MigrationPlan fleetAgain = Planner.migration(afterApps, fleetTwins, Optional.of("fleet"));

    PlannedObject source = fleetAgain.objects().get(0);
    assertEquals("GitRepository fleet/fleet", source.title());
    assertEquals(Outcome.CONTINUE, source.outcome(), "no Flux object uses it any more");
    assertEquals(List.of(SUSPEND_FLUX, WAIT_READY, DELETE_FLUX), source.steps());
  }

  @Test
  void bothNamespacesTogetherMigrateTheSourceFirst() {
    MigrationPlan plan = Planner.migration(flux, List.of());

    assertEquals(
        List.of(
            "GitRepository fleet/fleet", "Kustomization apps/podinfo", "Kustomization fleet/infra"),
        titles(plan));
    plan.objects().forEach(o -> assertEquals(Outcome.MIGRATE, o.outcome(), o::title));
    assertEquals(
        List.of(SUSPEND_FLUX, CREATE_TWIN, WAIT_READY, DELETE_FLUX), plan.objects().get(0).steps());
  }

  @Test
  void rollingBackTheSourcesNamespaceKeepsTheTwinThatTheOtherNamespaceStillUses() {
    List<Manifest> twins = twins(Planner.migration(flux, List.of()));

    MigrationPlan plan = Planner.rollback(List.of(), twins, Optional.of("fleet"));

    assertEquals(List.of("GitRepository fleet/fleet", "Kustomization fleet/infra"), titles(plan));
    PlannedObject source = plan.objects().get(0);
    assertEquals(Outcome.ROLL_BACK_SHARED, source.outcome());
    assertEquals(
        "used by Kustomization apps/podinfo, which -n fleet leaves with Capstan", source.reason());
    assertEquals(List.of(CREATE_FLUX, RESUME_FLUX), source.steps());

    MigrationPlan everything = Planner.rollback(List.of(), twins);
    assertEquals(
        List.of(SUSPEND_TWIN, CREATE_FLUX, RESUME_FLUX, DELETE_TWIN),
        everything.objects().get(0).steps());
  }

  @Test
  void rollingBackOnlyTheUsersNamespaceIsBlockedWhileItsSourceHasNoFluxObject() {
    List<Manifest> twins = twins(Planner.migration(flux, List.of()));

    MigrationPlan plan = Planner.rollback(List.of(), twins, Optional.of("apps"));

    assertEquals(Outcome.BLOCKED, plan.objects().get(0).outcome());
    assertEquals(
        "its source GitRepository fleet/fleet is outside -n apps and has no Flux object any more:"
            + " roll back -n fleet first (its twin is kept running for this one), or both"
            + " namespaces together without -n",
        plan.objects().get(0).reason());
    assertTrue(plan.objects().get(0).steps().isEmpty());
  }

  /** The twins an apply of {@code plan} creates, as the cluster would then hold them. */
  private static List<Manifest> twins(MigrationPlan plan) {
    List<Manifest> twins = new ArrayList<>();
    for (PlannedObject object : plan.objects()) {
      if (object.steps().contains(CREATE_TWIN)) {
        twins.add(
            new Manifest(object.kind(), TwinManifest.capstanTwin(object.flux().orElseThrow())));
      }
    }
    return twins;
  }

  private static List<Manifest> without(List<Manifest> objects, String kind, String name) {
    return objects.stream()
        .filter(o -> !(o.kind().kind.equals(kind) && o.name().equals(name)))
        .toList();
  }

  private static List<String> titles(MigrationPlan plan) {
    return plan.objects().stream().map(PlannedObject::title).toList();
  }

  private static String print(MigrationPlan plan) {
    StringWriter text = new StringWriter();
    new PlanPrinter(new PrintWriter(text)).print(plan);
    return text.toString();
  }
}
