package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.applier.apply.ApplyPolicy;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.DriftPolicy;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.ignore.IgnoreRules;
import dev.capstan.applier.ignore.JsonPointer;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.health.status.Status;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.driftDetection} of an unchanged release (YAML fixtures in {@code helmrelease/drift}):
 * what the applier is asked in each mode, and the Drifted condition its answer makes; never a new
 * release record, a render or a change of Ready.
 */
class ReleaseDriftTest {
  private static final String DEPLOYMENT = "Deployment/apps/podinfo";
  private static final String SERVICE = "Service/apps/podinfo";

  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void warnReportsTheDriftedObjectsByNameAndWritesNothing() {
    HelmRelease release = installed("warn.yaml");
    assertDrifted(release, "False", "NoDriftDetected", "No drift detected");
    fakes.answers.put(
        DEPLOYMENT,
        new ObjectResult(
            null,
            Action.DRIFTED,
            "changed in the cluster: /spec/template/spec/containers/0/image",
            List.of("/spec/template/spec/containers/0/image")));
    fakes.answers.put(
        SERVICE, new ObjectResult(null, Action.DRIFTED, "could not be compared: x=s3cr3t"));

    Outcome outcome = again(release);

    assertEquals(Outcome.Kind.SUCCEEDED, outcome.kind());
    assertDrifted(
        release,
        "True",
        "DriftDetected",
        "2 objects drifted: Deployment/apps/podinfo: /spec/template/spec/containers/0/image;"
            + " Service/apps/podinfo: could not be compared");
    assertReadyAsInstalled(release);
    ApplyRequest looked = fakes.applyRequests.get(fakes.applyRequests.size() - 1);
    assertEquals(DriftPolicy.Mode.LOOK, looked.drift().mode()); // compared, never written
    assertFalse(looked.firstApply());
    assertEquals(ApplyPolicy.DEFAULT, looked.policy()); // no manager taken over: nothing written
  }

  @Test
  void enabledAppliesTheDriftedObjectsAgainInPlaceAndReadyStaysTrue() {
    HelmRelease release = installed("enabled.yaml");
    assertDrifted(release, "False", "NoDriftDetected", "No drift detected");
    fakes.answers.put(
        DEPLOYMENT,
        new ObjectResult(
            null,
            Action.DRIFTED,
            "changed in the cluster: /spec/replicas",
            List.of("/spec/replicas")));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.DRIFTED, "deleted from the cluster"));
    // the Service is created again; the Deployment recreated (force): it was not deleted
    fakes.corrections.put(DEPLOYMENT, new ObjectResult(null, Action.CREATED, null));
    fakes.corrections.put(SERVICE, new ObjectResult(null, Action.CREATED, null));

    again(release);

    assertDrifted(
        release,
        "False",
        "DriftCorrected",
        "corrected: 2 objects drifted: Deployment/apps/podinfo: changed in the cluster;"
            + " Service/apps/podinfo: deleted from the cluster");
    assertReadyAsInstalled(release);
    ApplyRequest looked = fakes.applyRequests.get(fakes.applyRequests.size() - 2);
    assertEquals(DriftPolicy.Mode.LOOK, looked.drift().mode());
    ApplyRequest corrected = fakes.applyRequests.get(fakes.applyRequests.size() - 1);
    assertEquals(DriftPolicy.Mode.CORRECT, corrected.drift().mode());
    assertEquals(ReleaseApply.HELM_MANAGERS, corrected.policy());
  }

  @Test
  void enabledCorrectsOnlyTheObjectsTheLookFoundDrifted() {
    HelmRelease release = installed("enabled.yaml");
    fakes.answers.put(DEPLOYMENT, new ObjectResult(null, Action.UNCHANGED, null));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.DRIFTED, "deleted from the cluster"));

    again(release);

    ApplyRequest corrected = fakes.applyRequests.get(fakes.applyRequests.size() - 1);
    assertEquals(List.of("Service"), corrected.objects().stream().map(o -> o.getKind()).toList());
  }

  @Test
  void enabledWithNothingDriftedSaysSoAndWritesNothing() {
    HelmRelease release = installed("enabled.yaml");
    fakes.answers.put(DEPLOYMENT, new ObjectResult(null, Action.UNCHANGED, null));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.UNCHANGED, null));
    int applies = fakes.applies;

    again(release);

    assertDrifted(release, "False", "NoDriftDetected", "No drift detected");
    assertEquals(applies + 1, fakes.applies); // the look alone
  }

  @Test
  void aCorrectionTheServerRefusesIsDriftedTrueNamingTheObjectNotTheServersWords() {
    HelmRelease release = installed("enabled.yaml");
    fakes.answers.put(DEPLOYMENT, new ObjectResult(null, Action.DRIFTED, "changed in the cluster"));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.UNCHANGED, null));
    fakes.corrections.put(
        DEPLOYMENT, new ObjectResult(null, Action.FAILED, "denied: password=s3cr3t"));

    again(release);

    Condition drifted = assertDrifted(release, "True", "DriftCorrectionFailed", null);
    assertEquals(
        "not corrected: 1 object drifted: Deployment/apps/podinfo: could not be applied again",
        drifted.getMessage());
    assertReadyAsInstalled(release);
  }

  @Test
  void aCorrectionStillRollingOutLongAfterTheDeployIsNoTimeoutAndNoPendingWait() {
    HelmRelease release = installed("enabled.yaml");
    Condition healthy = HelmReleaseStatuses.condition(release.getStatus(), "Healthy").orElseThrow();
    fakes.answers.put(DEPLOYMENT, new ObjectResult(null, Action.DRIFTED, "changed in the cluster"));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.UNCHANGED, null));
    fakes.corrections.put(DEPLOYMENT, new ObjectResult(null, Action.CONFIGURED, null));
    fakes.health = Status.InProgress;
    fakes.now = fakes.now.plus(Duration.ofDays(2));

    Outcome outcome = again(release);

    assertEquals(Outcome.Kind.SUCCEEDED, outcome.kind());
    assertReadyAsInstalled(release);
    assertDrifted(release, "False", "DriftCorrected", null);
    Condition after = HelmReleaseStatuses.condition(release.getStatus(), "Healthy").orElseThrow();
    assertEquals(healthy.getStatus(), after.getStatus());
    assertEquals(healthy.getReason(), after.getReason());
    // no wait pending: the next reconcile looks for drift again
    int applies = fakes.applies;
    again(release);
    assertTrue(fakes.applies > applies);
  }

  @Test
  void warnSaysDriftIsNotKnownWhenObjectsCouldNotBeCompared() {
    HelmRelease release = installed("warn.yaml");
    fakes.answers.put(DEPLOYMENT, new ObjectResult(null, Action.FAILED, "invalid: token=s3cr3t"));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.SKIPPED, "not yet"));

    Outcome outcome = again(release);

    assertEquals(Outcome.Kind.SUCCEEDED, outcome.kind());
    assertDrifted(
        release,
        "Unknown",
        "DriftDetectionFailed",
        "drift not known: 2 objects could not be compared with the cluster:"
            + " Deployment/apps/podinfo, Service/apps/podinfo");
    assertReadyAsInstalled(release);
  }

  @Test
  void anApiErrorInTheLookIsReportedInDriftedAndReadyStaysFromHealth() {
    HelmRelease release = installed("enabled.yaml");
    fakes.lookThrows = new KubernetesClientException("connection refused: secret=s3cr3t");

    Outcome outcome = again(release);

    assertEquals(Outcome.Kind.SUCCEEDED, outcome.kind());
    Condition drifted = assertDrifted(release, "Unknown", "DriftDetectionFailed", null);
    assertFalse(drifted.getMessage().contains("s3cr3t"), drifted.getMessage());
    assertReadyAsInstalled(release);
  }

  @Test
  void ignoredPathsCountInTheLookNeverInTheReleasesOwnApply() {
    HelmRelease release = installed("warn.yaml");
    again(release);

    ApplyRequest install = fakes.applyRequests.get(0);
    ApplyRequest looked = fakes.applyRequests.get(fakes.applyRequests.size() - 1);
    // the release's own apply writes every field of the chart's, an ignored one too: a chart's
    // new value of it is applied by an install or upgrade, as Flux does
    assertTrue(install.ignore().isEmpty());
    assertEquals(List.of(JsonPointer.parse("/spec/replicas")), ignored(looked, "Deployment"));
    assertEquals(List.of(), ignored(looked, "Service"));
  }

  @Test
  void anUpgradeChangingAnIgnoredFieldAppliesTheChartsNewValue() throws Exception {
    HelmRelease release = installed("warn.yaml");
    release.getMetadata().setGeneration(2L);
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode spec = mapper.valueToTree(release.getSpec());
    spec.set("values", mapper.readTree("{\"replicaCount\":3}"));
    release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
    int applies = fakes.applies;

    pipeline.reconcile(release);

    assertEquals(2, fakes.records.size());
    assertEquals(3, fakes.records.get(2).release().config().path("replicaCount").asInt());
    ApplyRequest upgrade = fakes.applyRequests.get(applies);
    assertEquals(DriftPolicy.Mode.CORRECT, upgrade.drift().mode());
    // /spec/replicas is ignored by drift detection only: the upgrade sends it like any field
    assertTrue(upgrade.ignore().isEmpty());
    assertEquals(List.of(), ignored(upgrade, "Deployment"));
  }

  @Test
  void anObjectLabelledOrAnnotatedDisabledIsLeftOutOfTheLookAndTheCorrection() {
    fakes.manifest =
        fakes.manifest.replaceFirst(
            "kind: Service\nmetadata:\n",
            "kind: Service\nmetadata:\n  annotations:\n"
                + "    helm.toolkit.fluxcd.io/driftDetection: disabled\n");
    HelmRelease release = installed("enabled.yaml");
    fakes.answers.put(
        DEPLOYMENT,
        new ObjectResult(null, Action.DRIFTED, "changed in the cluster", List.of("/spec")));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.DRIFTED, "deleted from the cluster"));
    fakes.corrections.put(DEPLOYMENT, new ObjectResult(null, Action.CONFIGURED, null));

    again(release);

    ApplyRequest looked = fakes.applyRequests.get(fakes.applyRequests.size() - 2);
    assertEquals(List.of("Deployment"), looked.objects().stream().map(o -> o.getKind()).toList());
    assertDrifted(
        release,
        "False",
        "DriftCorrected",
        "corrected: 1 object drifted: Deployment/apps/podinfo: changed in the cluster");
  }

  @Test
  void theOptOutIsAlsoReadFromCapstansOwnLabel() {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setMetadata(new ObjectMeta());
    assertFalse(ReleaseDrift.optedOut(object));
    object.getMetadata().setLabels(Map.of("helm.capstan.dev/driftDetection", "disabled"));
    assertTrue(ReleaseDrift.optedOut(object));
    object.getMetadata().setLabels(Map.of("helm.capstan.dev/driftDetection", "enabled"));
    assertFalse(ReleaseDrift.optedOut(object));
  }

  @Test
  void aRollbackOfAFailedUpgradeLeavesNoDriftedFromBeforeIt() throws Exception {
    HelmRelease release = installed("warn.yaml");
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.DRIFTED, "deleted from the cluster"));
    again(release);
    assertDrifted(release, "True", "DriftDetected", null);
    release.getMetadata().setGeneration(2L);
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode spec = mapper.valueToTree(release.getSpec());
    spec.set("values", mapper.readTree("{\"replicaCount\":3}"));
    spec.set("upgrade", mapper.readTree("{\"remediation\":{\"retries\":1}}"));
    release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
    fakes.applyFails = true;
    pipeline.reconcile(release); // the upgrade fails: what was drifted may still be
    assertDrifted(release, "True", "DriftDetected", null);
    fakes.applyFails = false;

    pipeline.reconcile(release); // rolled back to version 1, applied whole

    assertEquals(
        "True Remediated",
        HelmReleaseStatuses.condition(release.getStatus(), "Remediated")
            .map(c -> c.getStatus() + " Remediated")
            .orElse("none"));
    assertDrifted(release, "False", "NoDriftDetected", "No drift detected");
  }

  @Test
  void disabledLooksAtNothingAndHasNoDriftedCondition() {
    HelmRelease release = installed("disabled.yaml");
    int applies = fakes.applies;
    int statusWrites = fakes.statusWrites;

    again(release);

    assertEquals(applies, fakes.applies);
    assertEquals(statusWrites, fakes.statusWrites);
    assertEquals(1, fakes.renders);
    assertEquals(Optional.empty(), drifted(release));
    // ignore rules count only with drift detection on: the install's digest is the plain one
    assertTrue(fakes.applyRequests.get(0).ignore().isEmpty());
  }

  @Test
  void noLookWhileTheWaitForTheObjectsIsPending() {
    fakes.health = Status.InProgress;
    HelmRelease release = installed("warn.yaml");
    int applies = fakes.applies;
    fakes.now = fakes.now.plus(Duration.ofSeconds(2));

    Outcome outcome = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.WAITING, outcome.kind());
    assertEquals(applies, fakes.applies);
  }

  @Test
  void anIgnorePathThatIsNoPointerStallsBeforeAnythingIsRendered() {
    HelmRelease release = ReleaseFakes.releaseAt("drift/bad-ignore.yaml");

    Outcome outcome = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.TERMINAL, outcome.kind());
    assertEquals(0, fakes.renders);
    Condition stalled = HelmReleaseStatuses.condition(release.getStatus(), "Stalled").orElseThrow();
    assertEquals("InitFailed", stalled.getReason());
    assertTrue(stalled.getMessage().contains("spec.driftDetection.ignore"), stalled.getMessage());
  }

  private HelmRelease installed(String fixture) {
    HelmRelease release = ReleaseFakes.releaseAt("drift/" + fixture);
    pipeline.reconcile(release);
    assertEquals(1, fakes.records.size());
    return release;
  }

  /** A reconcile of the unchanged release later on: no render, no new record. */
  private Outcome again(HelmRelease release) {
    int recordWrites = fakes.recordWrites;
    fakes.now = fakes.now.plus(Duration.ofMinutes(5));
    Outcome outcome = pipeline.reconcile(release);
    assertEquals(1, fakes.renders);
    assertEquals(recordWrites, fakes.recordWrites);
    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    return outcome;
  }

  private static void assertReadyAsInstalled(HelmRelease release) {
    Condition ready = HelmReleaseStatuses.condition(release.getStatus(), "Ready").orElseThrow();
    assertEquals("True", ready.getStatus());
    assertEquals("InstallSucceeded", ready.getReason());
  }

  private static Condition assertDrifted(
      HelmRelease release, String status, String reason, String message) {
    Condition drifted = drifted(release).orElseThrow();
    assertEquals(status, drifted.getStatus());
    assertEquals(reason, drifted.getReason());
    if (message != null) {
      assertEquals(message, drifted.getMessage());
    }
    return drifted;
  }

  private static Optional<Condition> drifted(HelmRelease release) {
    return HelmReleaseStatuses.condition(release.getStatus(), "Drifted");
  }

  private static GenericKubernetesResource object(ApplyRequest request, String kind) {
    return request.objects().stream().filter(o -> kind.equals(o.getKind())).findFirst().get();
  }

  private static ObjectRef ref(ApplyRequest request, String kind) {
    return ObjectRef.of(object(request, kind)).withNamespace("apps");
  }

  private static List<JsonPointer> ignored(ApplyRequest request, String kind) {
    IgnoreRules rules = request.ignore();
    GenericKubernetesResource object = object(request, kind);
    return rules.pointersFor(
        ref(request, kind),
        object.getMetadata().getLabels(),
        object.getMetadata().getAnnotations());
  }
}
