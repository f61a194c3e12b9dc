package dev.capstan.cli.migrate;

import static dev.capstan.cli.migrate.Step.COPY_STATUS;
import static dev.capstan.cli.migrate.Step.CREATE_FLUX;
import static dev.capstan.cli.migrate.Step.CREATE_TWIN;
import static dev.capstan.cli.migrate.Step.DELETE_FLUX;
import static dev.capstan.cli.migrate.Step.DELETE_TWIN;
import static dev.capstan.cli.migrate.Step.HAND_BACK;
import static dev.capstan.cli.migrate.Step.HAND_OVER;
import static dev.capstan.cli.migrate.Step.RESUME_FLUX;
import static dev.capstan.cli.migrate.Step.RESUME_TWIN;
import static dev.capstan.cli.migrate.Step.SUSPEND_FLUX;
import static dev.capstan.cli.migrate.Step.SUSPEND_TWIN;
import static dev.capstan.cli.migrate.Step.WAIT_READY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlannerTest {

  @Test
  void sourcesComeFirstAHelmReleaseBeforeTheKustomizationThatHealthChecksIt() {
    MigrationPlan plan = Planner.migration(MigrationFixtures.load("flux-cluster.yaml"), List.of());

    assertEquals(
        List.of(
            "GitRepository flux-system/flux-system",
            "HelmRepository flux-system/podinfo",
            "HelmChart flux-system/podinfo-podinfo",
            "HelmRelease podinfo/podinfo",
            "Kustomization flux-system/infra-controllers",
            "Kustomization flux-system/infra-configs",
            "Kustomization flux-system/apps"),
        plan.objects().stream().map(PlannedObject::title).toList());
    assertEquals(
        List.of(
            Outcome.MIGRATE,
            Outcome.MIGRATE,
            Outcome.NOT_MIGRATED,
            Outcome.MIGRATE,
            Outcome.MIGRATE,
            Outcome.MIGRATE,
            Outcome.MIGRATE),
        plan.objects().stream().map(PlannedObject::outcome).toList());
    assertEquals(
        "made by helm-controller for HelmRelease podinfo/podinfo: Capstan's HelmRelease makes"
            + " its own HelmChart, and this one is deleted when that HelmRelease migrates",
        plan.objects().get(2).reason());
    assertTrue(plan.blocked().isEmpty());
  }

  @Test
  void aKustomizationIsSuspendedTwinnedHandedOverResumedWaitedForAndOnlyThenDeleted() {
    MigrationPlan plan = Planner.migration(MigrationFixtures.load("flux-cluster.yaml"), List.of());

    assertEquals(
        List.of(SUSPEND_FLUX, CREATE_TWIN, HAND_OVER, RESUME_TWIN, WAIT_READY, DELETE_FLUX),
        plan.objects().get(6).steps());
    assertEquals(
        List.of(SUSPEND_FLUX, CREATE_TWIN, WAIT_READY, DELETE_FLUX), plan.objects().get(0).steps());
  }

  @Test
  void anObjectWithARefusedFieldIsBlockedAndTakesNoStep() {
    MigrationPlan plan = Planner.migration(MigrationFixtures.load("refused.yaml"), List.of());

    assertEquals(7, plan.blocked().size());
    plan.objects().forEach(o -> assertTrue(o.steps().isEmpty(), o::title));
    plan.objects()
        .forEach(o -> assertEquals("Capstan refuses a field of it (below)", o.reason(), o::title));
  }

  @Test
  void aRunKilledHalfWayContinuesFromWhatItFinds() {
    MigrationPlan plan =
        Planner.migration(
            MigrationFixtures.load("half-migrated.yaml"),
            MigrationFixtures.load("half-migrated-capstan.yaml"));

    PlannedObject apps = find(plan, "Kustomization flux-system/apps");
    assertEquals(Outcome.CONTINUE, apps.outcome());
    assertEquals(List.of(HAND_OVER, RESUME_TWIN, WAIT_READY, DELETE_FLUX), apps.steps());
    PlannedObject source = find(plan, "GitRepository flux-system/flux-system");
    assertEquals(Outcome.DONE, source.outcome());
    assertTrue(source.steps().isEmpty());
    PlannedObject clash = find(plan, "GitRepository team/mine");
    assertEquals(Outcome.BLOCKED, clash.outcome());
    assertEquals(
        "a Capstan GitRepository of this name exists that no migration created", clash.reason());
  }

  @Test
  void aSecondRunAfterAMigrationHasNothingToDo() {
    List<Manifest> twins =
        MigrationFixtures.load("half-migrated-capstan.yaml").stream()
            .filter(Planner::migrated)
            .toList();

    MigrationPlan plan = Planner.migration(List.of(), twins);

    assertEquals(2, plan.objects().size());
    assertTrue(plan.objects().stream().allMatch(o -> o.outcome() == Outcome.DONE));
    assertTrue(plan.nothingToDo());
  }

  @Test
  void aUserSuspendedObjectStaysSuspendedAndIsNotWaitedFor() {
    Manifest apps =
        MigrationFixtures.named(
            MigrationFixtures.load("half-migrated.yaml"), "Kustomization", "apps");
    apps.object().getMetadata().getAnnotations().clear();

    MigrationPlan plan = Planner.migration(List.of(apps), List.of());

    assertEquals(
        List.of(CREATE_TWIN, HAND_OVER, RESUME_TWIN, DELETE_FLUX), plan.objects().get(0).steps());
  }

  @Test
  void aRollbackHandsEveryTwinAMigrationMadeBackAndLeavesOtherCapstanObjects() {
    MigrationPlan plan =
        Planner.rollback(
            MigrationFixtures.load("half-migrated.yaml"),
            MigrationFixtures.load("half-migrated-capstan.yaml"));

    assertTrue(plan.rollback());
    assertEquals(
        List.of("GitRepository flux-system/flux-system", "Kustomization flux-system/apps"),
        plan.objects().stream().map(PlannedObject::title).toList());
    assertEquals(
        List.of(SUSPEND_TWIN, CREATE_FLUX, RESUME_FLUX, DELETE_TWIN),
        plan.objects().get(0).steps());
    assertEquals(List.of(HAND_BACK, RESUME_FLUX, DELETE_TWIN), plan.objects().get(1).steps());
    assertFalse(plan.objects().get(1).steps().contains(COPY_STATUS));
  }

  private static PlannedObject find(MigrationPlan plan, String title) {
    return plan.objects().stream().filter(o -> o.title().equals(title)).findFirst().orElseThrow();
  }
}
