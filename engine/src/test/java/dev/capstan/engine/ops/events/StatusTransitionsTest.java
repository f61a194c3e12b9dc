package dev.capstan.engine.ops.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.BucketSpec;
import dev.capstan.api.source.BucketStatus;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.api.source.HelmChartSpec;
import dev.capstan.api.source.HelmChartStatus;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.HelmRepositorySpec;
import dev.capstan.api.source.HelmRepositoryStatus;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositorySpec;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.ops.events.StatusTransitions.Notice;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StatusTransitionsTest {
  private static final String REV1 = "main@sha1:1111111111111111111111111111111111111111";
  private static final String REV2 = "main@sha1:2222222222222222222222222222222222222222";

  private static Condition ready(String status, String reason, String message) {
    return new ConditionBuilder()
        .withType("Ready")
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .build();
  }

  private static Kustomization ks(
      boolean prune, String applied, Condition ready, List<String> inventory) {
    Kustomization ks = new Kustomization();
    KustomizationSpec spec =
        new KubernetesSerialization()
            .unmarshal(
                "{\"interval\":\"5m\",\"prune\":"
                    + prune
                    + ",\"sourceRef\":{\"kind\":\"GitRepository\",\"name\":\"r\"}}",
                KustomizationSpec.class);
    ks.setSpec(spec);
    ks.setStatus(
        new KustomizationStatus(
            1L,
            ready == null ? null : List.of(ready),
            applied,
            applied,
            null,
            inventory == null
                ? null
                : new Inventory(
                    inventory.stream().map(id -> new InventoryEntry(id, "v1")).toList())));
    return ks;
  }

  @Test
  void aNewAppliedRevisionIsOneNormalEvent() {
    List<Notice> notices =
        StatusTransitions.kustomization(
            ks(
                true,
                REV1,
                ready("True", "ReconciliationSucceeded", "Applied revision: " + REV1),
                List.of("a")),
            ks(
                true,
                REV2,
                ready("True", "ReconciliationSucceeded", "Applied revision: " + REV2),
                List.of("a")));
    assertEquals(
        List.of(new Notice(EventType.NORMAL, EventReason.APPLIED, "Applied revision: " + REV2)),
        notices);
  }

  @Test
  void aFailureIsReportedOnceWithItsOwnReasonAndRecoveryIsReported() {
    Kustomization ok =
        ks(true, REV1, ready("True", "ReconciliationSucceeded", "Applied revision: " + REV1), null);
    Kustomization failing =
        ks(true, REV1, ready("False", "HealthCheckFailed", "Deployment/apps/web: timed out"), null);
    assertEquals(
        List.of(
            new Notice(
                EventType.WARNING,
                EventReason.of(Reason.HEALTH_CHECK_FAILED),
                "Deployment/apps/web: timed out")),
        StatusTransitions.kustomization(ok, failing));
    assertEquals(
        List.of(),
        StatusTransitions.kustomization(
            failing,
            ks(
                true,
                REV1,
                ready("False", "HealthCheckFailed", "Deployment/apps/web: timed out"),
                null)),
        "a status rewrite with the same failure is not a new event");
    assertEquals(
        List.of(new Notice(EventType.WARNING, EventReason.RECONCILIATION_FAILED, "boom")),
        StatusTransitions.kustomization(
            failing, ks(true, REV1, ready("False", "SomethingNew", "boom"), null)),
        "an unknown reason is a reconciliation failure");
    assertEquals(
        List.of(new Notice(EventType.NORMAL, EventReason.APPLIED, "Applied revision: " + REV1)),
        StatusTransitions.kustomization(failing, ok));
    assertEquals(
        List.of(),
        StatusTransitions.kustomization(
            ok,
            ks(true, REV1, ready("Unknown", "Progressing", "Reconciliation in progress"), null)));
  }

  @Test
  void objectsLeavingTheInventoryArePrunedOnlyWithPruneOn() {
    List<String> before =
        IntStream.range(0, 14).mapToObj(i -> "apps_cm" + (char) ('a' + i) + "__ConfigMap").toList();
    Condition ok = ready("True", "ReconciliationSucceeded", "Applied revision: " + REV1);
    List<Notice> notices =
        StatusTransitions.kustomization(
            ks(true, REV1, ok, before), ks(true, REV1, ok, List.of(before.get(0), before.get(1))));
    assertEquals(1, notices.size());
    assertEquals(EventReason.PRUNED, notices.get(0).reason());
    assertEquals(
        "Pruned 12 objects: apps_cmc__ConfigMap, apps_cmd__ConfigMap, apps_cme__ConfigMap,"
            + " apps_cmf__ConfigMap, apps_cmg__ConfigMap, apps_cmh__ConfigMap, apps_cmi__ConfigMap,"
            + " apps_cmj__ConfigMap, apps_cmk__ConfigMap, apps_cml__ConfigMap and 2 more",
        notices.get(0).message());
    assertEquals(
        List.of(),
        StatusTransitions.kustomization(
            ks(false, REV1, ok, before), ks(false, REV1, ok, List.of())),
        "without prune nothing was deleted");
  }

  @Test
  void gitRepositoryNewArtifactAndFetchFailure() {
    GitRepository before = new GitRepository();
    before.setStatus(
        new GitRepositoryStatus(
            1L,
            List.of(ready("True", "Succeeded", "stored")),
            new Artifact(REV1, "sha256:1", "/a", null),
            null));
    GitRepository fetched = new GitRepository();
    fetched.setStatus(
        new GitRepositoryStatus(
            1L,
            List.of(ready("True", "Succeeded", "stored")),
            new Artifact(REV2, "sha256:2", "/b", null),
            null));
    assertEquals(
        List.of(
            new Notice(
                EventType.NORMAL,
                EventReason.NEW_ARTIFACT,
                "Stored artifact for revision: " + REV2)),
        StatusTransitions.gitRepository(before, fetched));
    GitRepository failed = new GitRepository();
    failed.setStatus(
        new GitRepositoryStatus(
            1L,
            List.of(ready("False", "GitOperationFailed", "connection refused")),
            new Artifact(REV2, "sha256:2", "/b", null),
            null));
    assertEquals(
        List.of(new Notice(EventType.WARNING, EventReason.FETCH_FAILED, "connection refused")),
        StatusTransitions.gitRepository(fetched, failed));
    assertEquals(
        List.of(), StatusTransitions.gitRepository(new GitRepository(), new GitRepository()));
  }

  @Test
  void ociRepositoryNewArtifactNamesItsOriginAsFluxDoes() {
    OCIRepository before = new OCIRepository();
    OCIRepository pulled = new OCIRepository();
    pulled.setSpec(
        new OCIRepositorySpec(
            "oci://ghcr.io/org/app",
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            "5m",
            null,
            null,
            null,
            null));
    String revision = "latest@sha256:" + "a".repeat(64);
    pulled.setStatus(
        new OCIRepositoryStatus(
            1L,
            List.of(ready("True", "Succeeded", "stored")),
            new Artifact(
                revision,
                "sha256:2",
                "/b",
                null,
                null,
                null,
                Map.of(
                    "org.opencontainers.image.source",
                    "https://github.com/org/app",
                    "org.opencontainers.image.revision",
                    REV1)),
            null,
            null,
            null));
    assertEquals(
        List.of(
            new Notice(
                EventType.NORMAL,
                EventReason.NEW_ARTIFACT,
                "stored artifact with revision '"
                    + revision
                    + "' from 'oci://ghcr.io/org/app', origin source 'https://github.com/org/app',"
                    + " origin revision '"
                    + REV1
                    + "'")),
        StatusTransitions.ociRepository(before, pulled));
    assertEquals(List.of(), StatusTransitions.ociRepository(pulled, pulled));
  }

  @Test
  void helmRepositoryNewIndexAndFailedDownloadWithoutTheUrlsUserInformation() {
    HelmRepository before = new HelmRepository();
    HelmRepository fetched = new HelmRepository();
    fetched.setSpec(
        new HelmRepositorySpec(
            "https://user:pass@charts.example.com",
            null,
            null,
            null,
            "5m",
            null,
            null,
            null,
            null,
            null,
            null));
    String revision = "sha256:" + "b".repeat(64);
    fetched.setStatus(
        new HelmRepositoryStatus(
            1L,
            List.of(ready("True", "Succeeded", "stored")),
            new Artifact(revision, revision, "/c", null, null, null, null),
            null));
    HelmRepository failed = new HelmRepository();
    failed.setSpec(fetched.getSpec());
    failed.setStatus(
        new HelmRepositoryStatus(
            1L,
            List.of(ready("False", "Failed", "GET ... answered HTTP 503")),
            fetched.getStatus().artifact(),
            null));

    List<Notice> stored = StatusTransitions.helmRepository(before, fetched);
    assertEquals(1, stored.size());
    assertEquals(EventReason.NEW_ARTIFACT, stored.get(0).reason());
    assertEquals(
        "stored fetched index with revision '" + revision + "' from 'https://charts.example.com'",
        stored.get(0).message());
    assertEquals(false, stored.get(0).message().contains("pass"));
    List<Notice> failure = StatusTransitions.helmRepository(fetched, failed);
    assertEquals(1, failure.size());
    assertEquals(EventReason.FETCH_FAILED, failure.get(0).reason());
  }

  @Test
  void bucketNewArtifactNamesItsBucketAndAFailedFetchIsAWarningOnce() {
    Bucket fetched = new Bucket();
    fetched.setSpec(
        new BucketSpec(
            null,
            "podinfo",
            "minio.example.com",
            null,
            true,
            null,
            null,
            null,
            null,
            null,
            null,
            "5m",
            null,
            null,
            null));
    String revision = "sha256:" + "c".repeat(64);
    fetched.setStatus(
        new BucketStatus(
            1L,
            List.of(ready("True", "Succeeded", "stored")),
            new Artifact(revision, "sha256:" + "d".repeat(64), "/c", null, null, null, null),
            null,
            null));
    Bucket failed = new Bucket();
    failed.setSpec(fetched.getSpec());
    failed.setStatus(
        new BucketStatus(
            1L,
            List.of(ready("False", "BucketOperationFailed", "bucket 'podinfo' does not exist")),
            fetched.getStatus().artifact(),
            null,
            null));

    List<Notice> stored = StatusTransitions.bucket(new Bucket(), fetched);
    assertEquals(1, stored.size());
    assertEquals(EventReason.NEW_ARTIFACT, stored.get(0).reason());
    assertEquals(
        "stored artifact with revision '" + revision + "' from 'podinfo' bucket",
        stored.get(0).message());
    assertEquals(List.of(), StatusTransitions.bucket(fetched, fetched));
    List<Notice> failure = StatusTransitions.bucket(fetched, failed);
    assertEquals(1, failure.size());
    assertEquals(EventReason.FETCH_FAILED, failure.get(0).reason());
    assertEquals(List.of(), StatusTransitions.bucket(failed, failed));
  }

  @Test
  void driftReportedIsAWarningOnceForTheSameObjectsAndItsEndIsNormal() {
    Condition ready = ready("True", "ReconciliationSucceeded", "Applied revision: " + REV1);
    Kustomization clean = withConditions(ready, drifted("False", "No drift detected"));
    Kustomization drifted =
        withConditions(ready, drifted("True", "1 object drifted: ConfigMap/a/b: /data/x"));
    Kustomization more =
        withConditions(ready, drifted("True", "1 object drifted: ConfigMap/a/b: /data/y"));
    assertEquals(
        List.of(
            new Notice(
                EventType.WARNING,
                EventReason.DRIFT_DETECTED,
                "1 object drifted: ConfigMap/a/b: /data/x")),
        StatusTransitions.kustomization(clean, drifted));
    assertEquals(
        List.of(),
        StatusTransitions.kustomization(
            drifted,
            withConditions(ready, drifted("True", "1 object drifted: ConfigMap/a/b: /data/x"))));
    assertEquals(1, StatusTransitions.kustomization(drifted, more).size());
    assertEquals(
        List.of(new Notice(EventType.NORMAL, EventReason.NO_DRIFT_DETECTED, "No drift detected")),
        StatusTransitions.kustomization(drifted, clean));
  }

  private static Condition drifted(String status, String message) {
    return new ConditionBuilder()
        .withType("Drifted")
        .withStatus(status)
        .withReason("True".equals(status) ? "DriftDetected" : "NoDriftDetected")
        .withMessage(message)
        .build();
  }

  private static Kustomization withConditions(Condition... conditions) {
    Kustomization ks = ks(false, REV1, null, null);
    ks.setStatus(new KustomizationStatus(1L, List.of(conditions), REV1, REV1, null, null));
    return ks;
  }

  @Test
  void helmChartPulledOrPackagedInFluxsWordsAndAFailedBuild() {
    HelmChart before = new HelmChart();
    HelmChart pulled = chart("HelmRepository", ready("True", "Succeeded", "stored"), "6.5.4");
    HelmChart packaged = chart("GitRepository", ready("True", "Succeeded", "stored"), "0.1.0+ab");
    HelmChart failed = chart("HelmRepository", ready("False", "ChartPullError", "bad"), "6.5.4");

    List<Notice> fromRepo = StatusTransitions.helmChart(before, pulled);
    assertEquals(EventReason.NEW_ARTIFACT, fromRepo.get(0).reason());
    assertEquals("pulled 'podinfo' chart with version '6.5.4'", fromRepo.get(0).message());
    assertEquals(
        "packaged 'podinfo' chart with version '0.1.0+ab'",
        StatusTransitions.helmChart(before, packaged).get(0).message());
    List<Notice> failure = StatusTransitions.helmChart(pulled, failed);
    assertEquals(1, failure.size());
    assertEquals(EventReason.FETCH_FAILED, failure.get(0).reason());
  }

  private static HelmChart chart(String kind, Condition ready, String revision) {
    HelmChart chart = new HelmChart();
    chart.setSpec(
        new HelmChartSpec(
            "podinfo",
            null,
            new HelmChartSourceReference(null, HelmChartSourceReference.Kind.valueOf(kind), "s"),
            "1m",
            null,
            null,
            null,
            null,
            null,
            null,
            null));
    chart.setStatus(
        new HelmChartStatus(
            1L,
            "sha256:abc",
            "podinfo",
            null,
            List.of(ready),
            new Artifact(revision, "sha256:def", "/c", null, null, null, null),
            null,
            null));
    return chart;
  }
}
