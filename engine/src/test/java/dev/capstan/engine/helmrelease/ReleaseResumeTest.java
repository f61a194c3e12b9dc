package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.ReleaseStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A release waiting for a hook is gone on with by a later reconcile only while it is what would be
 * released now, and its objects are checked for ownership as a fresh run's are.
 */
class ReleaseResumeTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void aResumedRunRefusesAnObjectAnotherClientMadeWhileItsHookRan() {
    fakes.hooks = ReleaseHooksTest.hooks("migrate");
    fakes.hookHealth.put("migrate", Status.InProgress);
    HelmRelease release =
        spec("  install:\n    disableTakeOwnership: true\n", ReleaseFakes.read("podinfo.yaml"));
    pipeline.reconcile(release);
    assertEquals(ReleaseStatus.PENDING_INSTALL, fakes.records.get(1).release().status());

    fakes.live =
        (object, namespace) ->
            new ObjectMetaBuilder().withName(object.getMetadata().getName()).build();
    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(release);

    assertTrue(
        fakes.writes.stream().noneMatch(w -> w.startsWith("Deployment")), fakes.writes::toString);
    assertEquals(ReleaseStatus.PENDING_INSTALL, fakes.records.get(1).release().status());
    Condition ready = condition(release, "Ready");
    assertEquals("False", ready.getStatus());
    assertTrue(ready.getMessage().contains("disableTakeOwnership"), ready.getMessage());
  }

  @Test
  void aNewChartArtifactOfTheSameVersionIsReleasedAgainNotResumed() {
    HelmRelease release = waitingForMigrate();

    fakes.chartDigest = "sha256:" + "b".repeat(64);
    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(2).release().status());
  }

  @Test
  void aChangedCommonMetadataIsReleasedAgainNotResumed() {
    HelmRelease release = waitingForMigrate();
    HelmRelease changed =
        spec("  commonMetadata:\n    labels: {team: a}\n", ReleaseFakes.read("podinfo.yaml"));
    changed.getMetadata().setGeneration(release.getMetadata().getGeneration() + 1);
    changed.setStatus(release.getStatus());

    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(changed);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(2).release().status());
    assertEquals(2, fakes.renders, "the new spec is rendered");
  }

  @Test
  void theSameInputsGoOnFromTheRecordWithoutARender() {
    HelmRelease release = waitingForMigrate();

    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(release);

    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals(1, fakes.renders);
  }

  @Test
  void aReleaseOfAnOciRepositoryGoesOnFromItsRecordWhoseVersionCarriesTheDigest() {
    fakes.artifactRevision = "6.5.0@sha256:" + "c".repeat(64);
    HelmRelease release = waitingForMigrate();

    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(release);

    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals("6.5.0+cccccccccccc", fakes.records.get(1).release().chart().version());
    assertEquals(1, fakes.renders);
  }

  private HelmRelease waitingForMigrate() {
    fakes.hooks = ReleaseHooksTest.hooks("migrate");
    fakes.hookHealth.put("migrate", Status.InProgress);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    assertEquals(ReleaseStatus.PENDING_INSTALL, fakes.records.get(1).release().status());
    return release;
  }

  private static HelmRelease spec(String fields, String yaml) {
    return new KubernetesSerialization()
        .unmarshal(yaml.replace("\nspec:\n", "\nspec:\n" + fields), HelmRelease.class);
  }

  private static Condition condition(HelmRelease release, String type) {
    return HelmReleaseStatuses.condition(release.getStatus(), type).orElseThrow();
  }
}
