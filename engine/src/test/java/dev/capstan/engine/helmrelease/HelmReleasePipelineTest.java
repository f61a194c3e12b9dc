package dev.capstan.engine.helmrelease;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HelmReleasePipelineTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void aNewReleaseIsInstalledAsVersionOneAndIsReady() {
    HelmRelease release = ReleaseFakes.release();

    Outcome outcome = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.SUCCEEDED, outcome.kind());
    assertEquals(1, fakes.renders);
    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals("Install complete", fakes.records.get(1).release().info().description());
    assertTrue(fakes.records.get(1).release().manifest().contains("kind: Deployment"));
    HelmReleaseStatus status = release.getStatus();
    assertCondition(status, "Ready", "True", "InstallSucceeded");
    assertEquals(
        "Helm install succeeded for release apps/podinfo.v1 with chart podinfo@6.5.0",
        condition(status, "Ready").getMessage());
    assertCondition(status, "Released", "True", "InstallSucceeded");
    assertCondition(status, "Healthy", "True", "Healthy");
    assertEquals(List.of("1 deployed"), versions(status));
    assertEquals("6.5.0", status.lastAttemptedRevision());
    assertEquals(1L, status.lastAttemptedGeneration());
    assertTrue(status.lastAttemptedConfigDigest().startsWith("sha256:"));
    // Flux's v2 API deprecated the unsalted SHA-1 for the digest above and no longer writes it
    assertNull(status.lastAttemptedValuesChecksum());
    assertEquals(HelmReleaseStatus.ReleaseAction.install, status.lastAttemptedReleaseAction());
    assertEquals(2, status.inventory().entries().size());
  }

  @Test
  void theHealthMonitorWatchesTheObjectsOnceTheWaitForThemEndsUntilTheReleaseIsDeleted() {
    HelmRelease release = ReleaseFakes.release();
    NamespacedName key = new NamespacedName("apps", "podinfo");
    fakes.health = Status.InProgress;

    pipeline.reconcile(release);
    assertEquals(Map.of(), fakes.tracked, "a pending wait is the reconcile's own");

    fakes.health = Status.Current;
    fakes.now = fakes.now.plus(Duration.ofSeconds(2));
    pipeline.reconcile(release);
    assertEquals(
        List.of("Service/apps/podinfo", "Deployment/apps/podinfo"),
        fakes.tracked.get(key).stream().map(ObjectRef::display).toList());

    pipeline.delete(release);
    assertEquals(Map.of(), fakes.tracked);
  }

  @Test
  void aBlipAfterTheWaitEndedNeitherReopensItNorFailsTheRelease() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    assertCondition(release.getStatus(), "Healthy", "True", "Healthy");

    // within spec.timeout of the deploy, an object progresses again
    fakes.health = Status.InProgress;
    fakes.now = fakes.now.plus(Duration.ofSeconds(10));
    assertEquals(Outcome.Kind.SUCCEEDED, pipeline.reconcile(release).kind());
    assertCondition(release.getStatus(), "Ready", "True", "InstallSucceeded");
    assertCondition(release.getStatus(), "Healthy", "False", "Progressing");

    // long past the deadline: still the release that passed its wait, nothing remediated
    fakes.now = fakes.now.plus(Duration.ofHours(1));
    assertEquals(Outcome.Kind.SUCCEEDED, pipeline.reconcile(release).kind());
    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertCondition(release.getStatus(), "Released", "True", "InstallSucceeded");
    assertCondition(release.getStatus(), "Ready", "True", "InstallSucceeded");
    assertCondition(release.getStatus(), "Healthy", "False", "Progressing");
    assertNull(release.getStatus().failures());
  }

  @Test
  void theObjectsCarryHelmsOwnershipMetadataAndTheReleasesLabels() {
    HelmRelease release = ReleaseFakes.release();
    List<GenericKubernetesResource> objects = ManifestObjects.of(fakes.manifest, release);

    assertEquals(2, objects.size());
    Map<String, String> annotations = objects.get(1).getMetadata().getAnnotations();
    assertEquals("podinfo", annotations.get("meta.helm.sh/release-name"));
    assertEquals("apps", annotations.get("meta.helm.sh/release-namespace"));
    assertEquals(
        "Helm", objects.get(1).getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
    assertEquals(
        Map.of("helm.capstan.dev/name", "podinfo", "helm.capstan.dev/namespace", "apps"),
        ReleaseApply.owner(release).labels());
  }

  @Test
  void anUnchangedReleaseIsNeitherRenderedNorWritten() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    int renders = fakes.renders;
    int applies = fakes.applies;
    int recordWrites = fakes.recordWrites;
    int statusWrites = fakes.statusWrites;
    int evaluators = pipeline.evaluators().created();

    fakes.now = fakes.now.plus(Duration.ofMinutes(5));
    Outcome again = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.SUCCEEDED, again.kind());
    assertEquals(renders, fakes.renders);
    assertEquals(List.of("HelmRelease"), fakes.renderedFor, "the render metric: the install's");
    assertEquals(evaluators, pipeline.evaluators().created(), "no health check compiled again");
    assertEquals(applies, fakes.applies);
    assertEquals(recordWrites, fakes.recordWrites);
    assertEquals(statusWrites, fakes.statusWrites);
  }

  @Test
  void aSpecChangeThatLeavesChartValuesAndTargetAsTheyWereReleasesNothing() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    int renders = fakes.renders;
    int applies = fakes.applies;
    int recordWrites = fakes.recordWrites;

    // as Flux: a new interval and timeout, or a suspend and resume, are no new release
    release.getMetadata().setGeneration(2L);
    ReleaseFakes.updateSpec(release, "{\"interval\":\"1h\",\"timeout\":\"10m\",\"suspend\":false}");
    Outcome again = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.SUCCEEDED, again.kind());
    assertEquals(renders, fakes.renders, "nothing rendered");
    assertEquals(applies, fakes.applies, "nothing applied");
    assertEquals(recordWrites, fakes.recordWrites, "no release record written");
    HelmReleaseStatus status = release.getStatus();
    assertEquals(List.of("1 deployed"), versions(status));
    assertEquals(2L, status.observedGeneration());
    Condition ready = HelmReleaseStatuses.condition(status, "Ready").orElseThrow();
    assertEquals("True InstallSucceeded", ready.getStatus() + " " + ready.getReason());
    assertEquals(2L, ready.getObservedGeneration(), "Ready speaks of the new generation");

    // and the next look at that generation is a no-op as any other
    int statusWrites = fakes.statusWrites;
    fakes.now = fakes.now.plus(Duration.ofMinutes(5));
    pipeline.reconcile(release);
    assertEquals(renders, fakes.renders);
    assertEquals(statusWrites, fakes.statusWrites);
  }

  @Test
  void aNewTargetNamespaceUninstallsTheRecordedReleaseFirstThenInstallsThere() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    fakes.now = fakes.now.plus(Duration.ofMinutes(1));
    pipeline.reconcile(release); // an upgrade-free look: still version 1
    int renders = fakes.renders;
    InventorySet installed = Inventories.toApplier(release.getStatus().inventory());

    release.getMetadata().setGeneration(2L);
    ReleaseFakes.updateSpec(
        release, "{\"releaseName\":\"podinfo\",\"targetNamespace\":\"elsewhere\"}");
    Outcome uninstalled = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.WAITING, uninstalled.kind());
    assertEquals(Optional.of(Duration.ZERO), uninstalled.requeueAfter(), "installed there at once");
    assertEquals(renders, fakes.renders, "nothing rendered for the new target yet");
    assertEquals(List.of(installed), fakes.deletedInventories, "the old objects deleted");
    assertEquals(
        new Owner.HelmReleaseName("podinfo", "apps"),
        fakes.deleteOwners.get(0).release(),
        "as the old release's objects");
    assertEquals(Map.of(), fakes.records, "the old release's records deleted");
    HelmReleaseStatus status = release.getStatus();
    assertNull(status.history());
    assertNull(status.storageNamespace());
    assertEquals(List.of(), status.inventory().entries());
    assertCondition(status, "Released", "False", "UninstallSucceeded");
    assertEquals(
        "Helm uninstall succeeded for release apps/podinfo.v1 with chart podinfo@6.5.0:"
            + " release target changed (release namespace changed)",
        condition(status, "Ready").getMessage());
    assertEquals(1L, status.lastAttemptedGeneration(), "the uninstall attempted no release");

    Outcome installed2 = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.SUCCEEDED, installed2.kind());
    assertEquals(renders + 1, fakes.renders);
    assertEquals(List.of("1 deployed"), versions(release.getStatus()));
    assertEquals("elsewhere", release.getStatus().latest().namespace());
    assertEquals("apps", release.getStatus().storageNamespace());
    assertCondition(release.getStatus(), "Ready", "True", "InstallSucceeded");
  }

  @Test
  void aChartOfAnotherNameUninstallsTheRecordedReleaseFirst() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    fakes.chartName = "other";
    Outcome uninstalled = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.WAITING, uninstalled.kind());
    assertEquals(Map.of(), fakes.records);
    assertTrue(
        condition(release.getStatus(), "Ready").getMessage().endsWith("(chart name changed)"));
    pipeline.reconcile(release);
    assertEquals("other", release.getStatus().latest().chartName());
    assertEquals(List.of("1 deployed"), versions(release.getStatus()));
  }

  @Test
  void aFailedUninstallOfTheRecordedReleaseKeepsItRecordedAndRetries() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    fakes.deleteFails = true;

    ReleaseFakes.updateSpec(release, "{\"storageNamespace\":\"records\"}");
    fakes.historyLookups.clear();
    Outcome failed = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TRANSIENT, failed.kind());
    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    HelmReleaseStatus status = release.getStatus();
    assertEquals("apps", status.storageNamespace(), "the records are still where they were");
    assertEquals(List.of("1 deployed"), versions(status));
    assertCondition(status, "Ready", "False", "UninstallFailed");
    assertTrue(
        condition(status, "Ready")
            .getMessage()
            .startsWith(
                "release target changed (storage namespace changed): Helm uninstall of release"
                    + " apps/podinfo.v1 with chart podinfo@6.5.0 failed: "),
        condition(status, "Ready").getMessage());

    // the HelmRelease deleted now: the release uninstalled is the recorded one
    fakes.deleteFails = false;
    assertEquals(Optional.empty(), pipeline.delete(release));
    assertEquals(Map.of(), fakes.records);
    assertEquals(
        List.of("apps/podinfo"),
        fakes.historyLookups.stream().distinct().toList(),
        "every record read where the status says they are, none where the spec says");
  }

  @Test
  void anOciChartOfAnotherNameIsToldByItsRenderAndUninstallsTheRecordedReleaseFirst() {
    fakes.artifactRevision = "6.5.0@sha256:" + "c".repeat(64);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    // the OCIRepository now holds another chart: its name is known once rendered
    fakes.artifactRevision = "6.5.0@sha256:" + "d".repeat(64);
    fakes.chartName = "other";
    Outcome uninstalled = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.WAITING, uninstalled.kind());
    assertEquals(Map.of(), fakes.records, "nothing recorded for the render");
    assertTrue(
        condition(release.getStatus(), "Ready").getMessage().endsWith("(chart name changed)"));
    assertEquals(
        "6.5.0+cccccccccccc",
        release.getStatus().lastAttemptedRevision(),
        "the last attempt stays the one before");
    pipeline.reconcile(release);
    assertEquals("other", release.getStatus().latest().chartName());
    assertEquals(List.of("1 deployed"), versions(release.getStatus()));
  }

  @Test
  void aPeriodicLookTakesTheHealthFromTheWatchWhenItFindsEveryObjectCurrent() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    fakes.watchedHealth = new AggregateHealth(Status.Current, "", List.of(), List.of(), 1);
    int reads = fakes.healthReads;

    fakes.now = fakes.now.plus(Duration.ofMinutes(5));
    pipeline.reconcile(release);
    assertEquals(reads, fakes.healthReads, "no object read live");
    assertEquals(
        "True",
        HelmReleaseStatuses.condition(release.getStatus(), "Healthy").orElseThrow().getStatus());

    fakes.watchedHealth =
        new AggregateHealth(Status.InProgress, "rolling", List.of(), List.of(), 1);
    fakes.now = fakes.now.plus(Duration.ofMinutes(5));
    pipeline.reconcile(release);
    assertEquals(reads + 1, fakes.healthReads, "a watch finding less than current is checked live");
  }

  @Test
  void aReleaseActingAsAServiceAccountReadsItsObjectsLive() {
    HelmRelease release = ReleaseFakes.releaseAt("pipeline/podinfo-sa.yaml");
    pipeline.reconcile(release);
    fakes.watchedHealth = new AggregateHealth(Status.Current, "", List.of(), List.of(), 1);
    int reads = fakes.healthReads;

    fakes.now = fakes.now.plus(Duration.ofMinutes(5));
    pipeline.reconcile(release);

    assertEquals(reads + 1, fakes.healthReads, "the watch reads with the engine's rights");
    assertFalse(
        fakes.tracked.containsKey(NamespacedName.of(release)),
        "nor is its health kept live by the monitor, which reads with the engine's rights");
  }

  @Test
  void anUnchangedReleaseOfAnOciRepositoryIsNeitherRenderedNorWritten() {
    fakes.artifactRevision = "6.5.0@sha256:" + "c".repeat(64);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    int renders = fakes.renders;
    int recordWrites = fakes.recordWrites;

    fakes.now = fakes.now.plus(Duration.ofMinutes(5));
    Outcome again = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.SUCCEEDED, again.kind());
    assertEquals(renders, fakes.renders);
    assertEquals(recordWrites, fakes.recordWrites);
    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    assertEquals("6.5.0+cccccccccccc", release.getStatus().latest().chartVersion());
  }

  @Test
  void anOciChartsAttemptIsItsPinnedVersionAndTheArtifactsDigestAsFluxWritesThem() {
    String digest = "sha256:" + "c".repeat(64);
    fakes.artifactRevision = "6.5.0@" + digest;
    HelmRelease release = ReleaseFakes.release();

    pipeline.reconcile(release);

    HelmReleaseStatus status = release.getStatus();
    assertEquals("6.5.0+cccccccccccc", status.lastAttemptedRevision());
    assertEquals(digest, status.lastAttemptedRevisionDigest());
    assertEquals(digest, status.latest().ociDigest());
    assertEquals(status.lastAttemptedRevision(), status.latest().chartVersion());
  }

  @Test
  void aChartMutateErrorLeavesWhatWasLastAttempted() {
    fakes.artifactRevision = "6.5.0@sha256:" + "c".repeat(64);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    fakes.artifactRevision = "6.6.0@sha256:" + "d".repeat(64);
    pipeline.reconcile(release);

    Condition ready = HelmReleaseStatuses.condition(release.getStatus(), "Ready").orElseThrow();
    assertEquals("False ChartMutateError", ready.getStatus() + " " + ready.getReason());
    assertEquals("6.5.0+cccccccccccc", release.getStatus().lastAttemptedRevision());
    assertEquals("sha256:" + "c".repeat(64), release.getStatus().lastAttemptedRevisionDigest());
  }

  @Test
  void aHelmChartsAttemptIsItsRevisionWithTheStoredArtifactsDigest() {
    HelmRelease release = ReleaseFakes.release();

    pipeline.reconcile(release);

    HelmReleaseStatus status = release.getStatus();
    assertEquals("6.5.0", status.lastAttemptedRevision());
    assertEquals(fakes.chartDigest, status.lastAttemptedRevisionDigest());
    assertNull(status.latest().ociDigest());
  }

  @Test
  void theSameTagPushedAgainWithOtherContentIsUpgraded() {
    fakes.artifactRevision = "6.5.0@sha256:" + "c".repeat(64);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    fakes.artifactRevision = "6.5.0@sha256:" + "d".repeat(64);
    pipeline.reconcile(release);

    assertEquals(2, fakes.renders);
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(2).release().status());
    assertEquals("6.5.0+dddddddddddd", fakes.records.get(2).release().chart().version());
  }

  @Test
  void aTagMovedToTheSameDigestIsRefusedThoughTheReleaseIsInSync() {
    fakes.artifactRevision = "6.5.0@sha256:" + "c".repeat(64);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    fakes.artifactRevision = "latest@sha256:" + "c".repeat(64);
    pipeline.reconcile(release);

    Condition ready = HelmReleaseStatuses.condition(release.getStatus(), "Ready").orElseThrow();
    assertEquals("False ChartMutateError", ready.getStatus() + " " + ready.getReason());
    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()), "nothing released again");
  }

  @Test
  void aTagThatIsNotTheChartsVersionIsRefusedBeforeAnyRelease() {
    fakes.artifactRevision = "latest@sha256:" + "c".repeat(64);
    HelmRelease release = ReleaseFakes.release();

    Outcome refused = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TRANSIENT, refused.kind());
    Condition ready = HelmReleaseStatuses.condition(release.getStatus(), "Ready").orElseThrow();
    assertEquals("False ChartMutateError", ready.getStatus() + " " + ready.getReason());
    assertEquals(
        "OCIRepository 'apps/podinfo': artifact revision latest does not match chart version 6.5.0",
        ready.getMessage());
    assertTrue(fakes.records.isEmpty(), "no release attempted");
    assertNull(release.getStatus().installFailures(), "no install failure counted");
  }

  @Test
  void newValuesUpgradeToVersionTwoAndSupersedeVersionOne() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    release.getMetadata().setGeneration(2L);
    ReleaseFakes.updateSpec(release, "{\"values\":{\"replicaCount\":2}}");
    fakes.manifest = ReleaseFakes.read("manifest-without-service.yaml");
    pipeline.reconcile(release);

    assertEquals(2, fakes.renders);
    assertEquals(ReleaseStatus.SUPERSEDED, fakes.records.get(1).release().status());
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(2).release().status());
    assertEquals(2, fakes.records.get(2).release().config().path("replicaCount").asInt());
    HelmReleaseStatus status = release.getStatus();
    assertCondition(status, "Ready", "True", "UpgradeSucceeded");
    assertEquals(List.of("2 deployed", "1 superseded"), versions(status));
    // the Service the new version dropped was in the inventory the prune started from
    assertEquals(2, fakes.prunedFrom.get(1).refs().size());
    assertEquals(1, status.inventory().entries().size());
  }

  @Test
  void aFailedApplyRecordsAFailedReleaseAndCountsTheFailure() {
    HelmRelease release = ReleaseFakes.release();
    fakes.applyFails = true;

    Outcome outcome = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TRANSIENT, outcome.kind());
    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    assertTrue(
        fakes.records.get(1).release().info().description().contains("admission webhook denied"));
    HelmReleaseStatus status = release.getStatus();
    assertCondition(status, "Released", "False", "InstallFailed");
    assertTrue(
        condition(status, "Ready")
            .getMessage()
            .startsWith(
                "Helm install failed for release apps/podinfo.v1 with chart podinfo@6.5.0:"));
    assertEquals(1L, status.failures());
    assertEquals(1L, status.installFailures());
    assertEquals(List.of("1 failed"), versions(status));
  }

  @Test
  void aFailedRenderIsTriedAgainAndNeverTakenForAnUnchangedRelease() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    // values from a ConfigMap changed: the same generation, new values
    ReleaseFakes.updateSpec(release, "{\"values\":{\"replicaCount\":3}}");
    fakes.renderFails = true;

    pipeline.reconcile(release);
    assertCondition(release.getStatus(), "Ready", "False", "UpgradeFailed");
    pipeline.reconcile(release);

    assertEquals(3, fakes.renders);
    assertCondition(release.getStatus(), "Ready", "False", "UpgradeFailed");
    assertCondition(release.getStatus(), "Released", "False", "UpgradeFailed");
    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));

    fakes.renderFails = false;
    pipeline.reconcile(release);

    assertCondition(release.getStatus(), "Ready", "True", "UpgradeSucceeded");
    assertEquals(List.of("2 deployed", "1 superseded"), versions(release.getStatus()));
  }

  @Test
  void valuesFromASecretQuotedByARenderOrApplyErrorAreInNoConditionNorRecord() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    fakes.valuesObjects.put(
        "Secret/db-creds",
        Map.of(
            "values.yaml", "db:\n  password: s3cr3t-db-password\n".getBytes(UTF_8),
            "token", "tok-9f8e7d6c5b".getBytes(UTF_8)));
    ReleaseFakes.updateSpec(
        release,
        "{\"valuesFrom\":[{\"kind\":\"Secret\",\"name\":\"db-creds\"},"
            + "{\"kind\":\"Secret\",\"name\":\"db-creds\",\"valuesKey\":\"token\","
            + "\"targetPath\":\"auth.token\"}]}");
    fakes.renderFails = true;
    fakes.renderError =
        "execution error at (podinfo/templates/secret.yaml:3:4): password"
            + " \"s3cr3t-db-password\" is too weak";

    pipeline.reconcile(release);

    assertCondition(release.getStatus(), "Ready", "False", "InstallFailed");
    assertRedacted(release.getStatus());
    fakes.renderFails = false;
    fakes.applyFails = true;
    fakes.applyError =
        "Secret \"podinfo\" is invalid: data[tok-9f8e7d6c5b]: Invalid value:"
            + " \"s3cr3t-db-password\"";

    pipeline.reconcile(release);

    assertCondition(release.getStatus(), "Released", "False", "InstallFailed");
    assertRedacted(release.getStatus());
    String description = fakes.records.get(1).release().info().description();
    assertTrue(description.contains("data[***]: Invalid value: \"***\""), description);
    assertFalse(description.contains("s3cr3t") || description.contains("tok-9f8e"), description);
  }

  private static void assertRedacted(HelmReleaseStatus status) {
    for (Condition condition : status.conditions()) {
      String message = condition.getMessage();
      assertFalse(
          message.contains("s3cr3t") || message.contains("tok-9f8e"),
          condition.getType() + ": " + message);
    }
    assertTrue(
        condition(status, "Ready").getMessage().contains("***"),
        condition(status, "Ready").getMessage());
  }

  @Test
  void theInstallsDisableWaitAppliesToAnInstallAndNotToAnUpgrade() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    ReleaseFakes.updateSpec(release, "{\"install\":{\"disableWait\":true}}");
    fakes.health = Status.InProgress;

    pipeline.reconcile(release);
    assertCondition(release.getStatus(), "Ready", "True", "InstallSucceeded");

    release.getMetadata().setGeneration(2L);
    ReleaseFakes.updateSpec(release, "{\"values\":{\"replicaCount\":2}}");
    pipeline.reconcile(release);

    assertCondition(release.getStatus(), "Ready", "Unknown", "Progressing");
  }

  @Test
  void statusHistoryKeepsSpecMaxHistorySnapshots() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    ReleaseFakes.updateSpec(release, "{\"maxHistory\":1}");
    pipeline.reconcile(release);

    release.getMetadata().setGeneration(2L);
    ReleaseFakes.updateSpec(release, "{\"values\":{\"replicaCount\":2}}");
    pipeline.reconcile(release);

    assertEquals(List.of("2 deployed"), versions(release.getStatus()));
  }

  @Test
  void aChartSourceWithoutArtifactWaitsAndRendersNothing() {
    HelmRelease release = ReleaseFakes.release();
    fakes.sourceReady = false;

    Outcome outcome = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.DEPENDENCY_NOT_READY, outcome.kind());
    assertEquals(0, fakes.renders);
    assertTrue(fakes.records.isEmpty());
    assertCondition(release.getStatus(), "Ready", "False", "SourceNotReady");
  }

  @Test
  void objectsNotHealthyYetAreLookedAtAgainWithoutARender() {
    HelmRelease release = ReleaseFakes.release();
    fakes.health = Status.InProgress;

    Outcome first = pipeline.reconcile(release);
    assertEquals(Outcome.Kind.WAITING, first.kind());
    assertCondition(release.getStatus(), "Ready", "Unknown", "Progressing");
    assertCondition(release.getStatus(), "Released", "True", "InstallSucceeded");

    fakes.health = Status.Current;
    fakes.now = fakes.now.plusSeconds(2);
    Outcome second = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.SUCCEEDED, second.kind());
    assertEquals(1, fakes.renders);
    assertCondition(release.getStatus(), "Ready", "True", "InstallSucceeded");
    assertCondition(release.getStatus(), "Healthy", "True", "Healthy");
  }

  @Test
  void objectsStillNotHealthyAtTheTimeoutFailTheHealthCheck() {
    HelmRelease release = ReleaseFakes.release();
    fakes.health = Status.InProgress;
    pipeline.reconcile(release);

    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    Outcome late = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TRANSIENT, late.kind());
    assertCondition(release.getStatus(), "Ready", "False", "HealthCheckFailed");
    assertEquals(1, fakes.renders);
  }

  @Test
  void deletionUninstallsObjectsRecordsAndTheHelmChart() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    Optional<Duration> again = pipeline.delete(release);

    assertTrue(again.isEmpty());
    assertEquals(1, fakes.deletedInventories.size());
    assertEquals(2, fakes.deletedInventories.get(0).refs().size());
    assertTrue(fakes.records.isEmpty());
    assertEquals(1, fakes.chartsForgotten);
  }

  @Test
  void deletionWithNoInventoryRecordedUninstallsTheObjectsOfTheLastDeployedManifest()
      throws IOException {
    // a release adopted from helm install and deleted before its first upgrade recorded any
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode status = mapper.valueToTree(release.getStatus());
    status.remove("inventory");
    release.setStatus(mapper.treeToValue(status, HelmReleaseStatus.class));

    Optional<Duration> again = pipeline.delete(release);

    assertTrue(again.isEmpty());
    assertEquals(2, fakes.deletedInventories.get(0).refs().size());
    assertTrue(fakes.records.isEmpty());
  }

  @Test
  void uninstallWithKeepHistoryMarksTheLatestRecordUninstalled() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    ReleaseFakes.updateSpec(release, "{\"uninstall\":{\"keepHistory\":true}}");

    pipeline.delete(release);

    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    assertEquals(ReleaseStatus.UNINSTALLED, fakes.records.get(1).release().status());
    assertNotNull(fakes.records.get(1).release().info().deleted());
  }

  @Test
  void aReleaseUninstalledByRemediationWithItsHistoryKeptIsInstalledAgainNotUpgraded()
      throws IOException {
    HelmRelease release = ReleaseFakes.release();
    ReleaseFakes.updateSpec(
        release,
        "{\"uninstall\":{\"keepHistory\":true},"
            + "\"upgrade\":{\"remediation\":{\"retries\":1,\"strategy\":\"uninstall\"}}}");
    pipeline.reconcile(release);
    release.getMetadata().setGeneration(2L);
    ReleaseFakes.updateSpec(release, "{\"values\":{\"replicaCount\":3}}");
    fakes.health = Status.InProgress;
    pipeline.reconcile(release);
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release); // version 2's wait failed
    pipeline.reconcile(release); // uninstalled: version 1 stays deployed below it
    assertEquals(ReleaseStatus.UNINSTALLED, fakes.records.get(2).release().status());
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());

    pipeline.reconcile(release);

    assertEquals("install", release.getStatus().lastAttemptedReleaseAction().name());
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(3).release().status());
    assertEquals("Install complete", fakes.records.get(3).release().info().description());
    // the install's retries (none) bound it: no uninstall, no upgrade again
    fakes.now = fakes.now.plus(Duration.ofMinutes(6));
    pipeline.reconcile(release);
    assertCondition(release.getStatus(), "Released", "False", "InstallFailed");
    Outcome stalled = pipeline.reconcile(release);
    assertEquals(Outcome.Kind.TERMINAL, stalled.kind());
    assertEquals(
        "Failed to install after 1 attempt(s)",
        condition(release.getStatus(), "Stalled").getMessage());
  }

  @Test
  void aSuspendedReleaseIsLeftAlone() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    ReleaseFakes.updateSpec(release, "{\"suspend\":true}");

    assertEquals(Outcome.Kind.SUSPENDED, pipeline.reconcile(release).kind());
    assertEquals(0, fakes.renders);
    assertEquals(0, fakes.statusWrites);
  }

  private static List<String> versions(HelmReleaseStatus status) {
    return status.history().stream().map(HelmReleasePipelineTest::describe).toList();
  }

  private static String describe(ReleaseSnapshot snapshot) {
    return snapshot.version() + " " + snapshot.status();
  }

  private static void assertCondition(
      HelmReleaseStatus status, String type, String expected, String reason) {
    Condition condition = condition(status, type);
    assertEquals(expected + " " + reason, condition.getStatus() + " " + condition.getReason());
  }

  private static Condition condition(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type).orElseThrow();
  }
}
