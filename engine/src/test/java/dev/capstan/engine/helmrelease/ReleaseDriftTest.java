package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
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
import java.time.Duration;
import java.util.List;
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
    assertEquals(DriftPolicy.Mode.REPORT, looked.drift().mode());
    assertTrue(looked.drift().expects(ref(looked, "Deployment")));
    assertTrue(looked.drift().expects(ref(looked, "Service")));
    assertFalse(looked.firstApply());
    assertEquals(ApplyPolicy.DEFAULT, looked.policy()); // no manager taken over: nothing written
  }

  @Test
  void enabledAppliesTheDriftedObjectsAgainInPlaceAndReadyStaysTrue() {
    HelmRelease release = installed("enabled.yaml");
    assertDrifted(release, "False", "NoDriftDetected", "No drift detected");
    fakes.answers.put(DEPLOYMENT, new ObjectResult(null, Action.CONFIGURED, null));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.CREATED, null));

    again(release);

    assertDrifted(
        release,
        "False",
        "DriftCorrected",
        "corrected: 2 objects drifted: Deployment/apps/podinfo: changed in the cluster;"
            + " Service/apps/podinfo: deleted from the cluster");
    assertReadyAsInstalled(release);
    ApplyRequest looked = fakes.applyRequests.get(fakes.applyRequests.size() - 1);
    assertEquals(DriftPolicy.Mode.CORRECT, looked.drift().mode());
    assertEquals(ReleaseApply.HELM_MANAGERS, looked.policy());
  }

  @Test
  void enabledWithNothingDriftedSaysSo() {
    HelmRelease release = installed("enabled.yaml");
    fakes.answers.put(DEPLOYMENT, new ObjectResult(null, Action.UNCHANGED, null));
    fakes.answers.put(SERVICE, new ObjectResult(null, Action.UNCHANGED, null));

    again(release);

    assertDrifted(release, "False", "NoDriftDetected", "No drift detected");
  }

  @Test
  void aCorrectionTheServerRefusesIsDriftedTrueNamingTheObjectNotTheServersWords() {
    HelmRelease release = installed("enabled.yaml");
    fakes.answers.put(DEPLOYMENT, new ObjectResult(null, Action.FAILED, "denied: password=s3cr3t"));

    again(release);

    Condition drifted = assertDrifted(release, "True", "DriftCorrectionFailed", null);
    assertEquals(
        "not corrected: 1 object drifted: Deployment/apps/podinfo: could not be applied again",
        drifted.getMessage());
    assertReadyAsInstalled(release);
  }

  @Test
  void ignoredPathsAreLeftOutOfTheLookAndOfTheReleasesOwnApply() {
    HelmRelease release = installed("warn.yaml");
    again(release);

    ApplyRequest install = fakes.applyRequests.get(0);
    ApplyRequest looked = fakes.applyRequests.get(fakes.applyRequests.size() - 1);
    // the same rules, so that the digest the install wrote is the one the look compares
    assertEquals(List.of(JsonPointer.parse("/spec/replicas")), ignored(install, "Deployment"));
    assertEquals(List.of(JsonPointer.parse("/spec/replicas")), ignored(looked, "Deployment"));
    assertEquals(List.of(), ignored(looked, "Service"));
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
