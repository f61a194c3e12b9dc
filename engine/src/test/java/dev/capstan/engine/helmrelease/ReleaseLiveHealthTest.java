package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.HealthTracking;
import dev.capstan.engine.monitor.HealthOwners.Told;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.Status;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReleaseLiveHealthTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** Long after the release's wait ended (deployed at 10:00:00, spec.timeout 1m). */
  private static final Instant LATER = Instant.parse("2026-01-01T11:00:00Z");

  @Test
  void aFailedObjectTurnsHealthyFalseAndLeavesEverythingElse() {
    HelmRelease release = released();

    ReleaseLiveHealth.Decision decision =
        ReleaseLiveHealth.decide(release, health(Status.Failed), Plaintexts.NONE, LATER);

    assertEquals(Told.WRITTEN, decision.told());
    HelmReleaseStatus before = release.getStatus();
    HelmReleaseStatus after = decision.status();
    assertEquals(
        List.of("False", "HealthCheckFailed", "Deployment/apps/podinfo is Failed"),
        summary(after, "Healthy"));
    assertEquals("2026-01-01T11:00:00Z", condition(after, "Healthy").getLastTransitionTime());
    // Ready as a Kustomization's: the monitor writes Healthy alone
    assertEquals(condition(before, "Ready"), condition(after, "Ready"));
    assertEquals(condition(before, "Released"), condition(after, "Released"));
    assertEquals(
        List.of("Ready", "Released", "Healthy"),
        after.conditions().stream().map(Condition::getType).toList());
    // nothing of the release, its attempt or its counters changes
    assertEquals(before.observedGeneration(), after.observedGeneration());
    assertEquals(before.history(), after.history());
    assertEquals(before.failures(), after.failures());
    assertEquals(before.lastAttemptedGeneration(), after.lastAttemptedGeneration());
  }

  @Test
  void progressingObjectsAreUnhealthyAsProgressingAndHealthyAgainWhenCurrent() {
    ReleaseLiveHealth.Decision late =
        ReleaseLiveHealth.decide(released(), health(Status.InProgress), Plaintexts.NONE, LATER);
    assertEquals(Told.WRITTEN, late.told());
    assertEquals(
        List.of("False", "Progressing", "Deployment/apps/podinfo is InProgress"),
        summary(late.status(), "Healthy"));

    HelmRelease broken = released();
    broken.setStatus(late.status());
    ReleaseLiveHealth.Decision back =
        ReleaseLiveHealth.decide(broken, health(Status.Current), Plaintexts.NONE, LATER);
    assertEquals(
        List.of("True", "Healthy", "2 objects of the release are healthy"),
        summary(back.status(), "Healthy"));
  }

  @Test
  void objectsProgressingWithinTheTimeoutOfTheDeployDoNotReopenTheEndedWait() {
    HelmRelease release = released();
    ReleaseLiveHealth.Decision decision =
        ReleaseLiveHealth.decide(
            release,
            health(Status.InProgress),
            Plaintexts.NONE,
            Instant.parse("2026-01-01T10:00:30Z"));

    // written, no reconcile woken, Ready untouched, and not what a reconcile reads as a wait
    assertEquals(Told.WRITTEN, decision.told());
    assertEquals(
        List.of("False", "Progressing"), summary(decision.status(), "Healthy").subList(0, 2));
    assertEquals(condition(release.getStatus(), "Ready"), condition(decision.status(), "Ready"));
    assertFalse(ReleaseDecision.Observed.waitPending(decision.status()));
  }

  @Test
  void withTheWaitDisabledAFailedObjectStillTurnsHealthyFalse() {
    HelmRelease release = released();
    release.setSpec(withSpec(release, "install", Map.of("disableWait", true)));

    ReleaseLiveHealth.Decision decision =
        ReleaseLiveHealth.decide(release, health(Status.Failed), Plaintexts.NONE, LATER);

    assertEquals(
        List.of("False", "HealthCheckFailed", "Deployment/apps/podinfo is Failed"),
        summary(decision.status(), "Healthy"));
  }

  @Test
  void aHelmReleaseActingAsAServiceAccountIsNotWritten() {
    HelmRelease release = released();
    release.setSpec(withSpec(release, "serviceAccountName", "deployer"));

    ReleaseLiveHealth.Decision decision =
        ReleaseLiveHealth.decide(release, health(Status.Failed), Plaintexts.NONE, LATER);

    assertEquals(Told.UNCHANGED, decision.told());
    assertSame(release.getStatus(), decision.status());
  }

  @Test
  void aReconcileForgetsTheHealthToldWritesNothingWhileInFlightAndItsEndLooksAgain() {
    HelmRelease release = released();
    NamespacedName key = new NamespacedName("apps", "podinfo");
    List<HelmReleaseStatus> written = new ArrayList<>();
    List<String> monitorCalls = new ArrayList<>();
    ReleaseLiveHealth live =
        new ReleaseLiveHealth(
            (k, change) -> written.add(change.apply(release)),
            Clock.fixed(LATER, ZoneOffset.UTC),
            r -> true);
    ReleaseHealthTracking tracking =
        live.trackedBy(
            new HealthTracking() {
              @Override
              public void track(
                  NamespacedName k,
                  List<ObjectRef> objects,
                  HealthEvaluator evaluator,
                  Optional<ServiceAccount> readAs,
                  Optional<RemoteCluster> cluster,
                  Optional<AggregateHealth> told) {}

              @Override
              public void untrack(NamespacedName k) {}

              @Override
              public void rewriting(NamespacedName k) {
                monitorCalls.add("rewriting " + k);
              }

              @Override
              public void reevaluate(NamespacedName k) {
                monitorCalls.add("reevaluate " + k);
              }
            });

    tracking.reconciling(key);
    assertEquals(List.of("rewriting " + key), monitorCalls, "the health its status tells");
    assertEquals(Told.UNCHANGED, live.tell(key, health(Status.InProgress)));
    assertEquals(List.of(), written);

    tracking.reconciled(key);
    assertEquals(
        List.of("rewriting " + key, "rewriting " + key, "reevaluate " + key),
        monitorCalls,
        "a reconcile that did not track wrote a status the monitor does not know");
    assertEquals(Told.WRITTEN, live.tell(key, health(Status.Failed)));
    assertEquals("False", condition(written.get(0), "Healthy").getStatus());

    monitorCalls.clear();
    tracking.reconciling(key);
    tracking.track(
        key,
        List.of(),
        HealthEvaluator.create(List.of(), false),
        Plaintexts.NONE,
        Optional.empty(),
        Optional.of(health(Status.Current)));
    tracking.reconciled(key);
    assertEquals(
        List.of("rewriting " + key, "reevaluate " + key),
        monitorCalls,
        "a reconcile that tracked told the monitor what it wrote");
  }

  @Test
  void aPendingWaitOrANotReleasedHelmReleaseIsNotWritten() {
    HelmRelease waiting = released();
    waiting.setStatus(withHealthy(waiting.getStatus(), "Unknown", "Progressing"));
    assertEquals(
        Told.UNCHANGED,
        ReleaseLiveHealth.decide(waiting, health(Status.Failed), Plaintexts.NONE, LATER).told());

    HelmRelease failed = released();
    failed.setStatus(withReleased(failed.getStatus(), "False"));
    assertEquals(
        Told.UNCHANGED,
        ReleaseLiveHealth.decide(failed, health(Status.Failed), Plaintexts.NONE, LATER).told());

    HelmRelease fresh = released();
    fresh.setStatus(null);
    assertEquals(
        Told.UNCHANGED,
        ReleaseLiveHealth.decide(fresh, health(Status.Failed), Plaintexts.NONE, LATER).told());
  }

  @Test
  void aValueFromASecretIsRedactedFromTheHealthMessage() {
    AggregateHealth quoting =
        new AggregateHealth(
            Status.Failed, "Deployment/apps/podinfo: bad token s3cr3t", List.of(), List.of(), 2);

    ReleaseLiveHealth.Decision decision =
        ReleaseLiveHealth.decide(
            released(), quoting, Plaintexts.ofValues(List.of("s3cr3t")), LATER);

    assertEquals(
        List.of("False", "HealthCheckFailed", "Deployment/apps/podinfo: bad token ***"),
        summary(decision.status(), "Healthy"));
  }

  @Test
  void tellingWritesThroughTheStatusUpdatesOnlyForTheReplicaThatOwnsIt() {
    HelmRelease release = released();
    List<HelmReleaseStatus> written = new ArrayList<>();
    ReleaseLiveHealth.StatusUpdates updates =
        (key, change) -> {
          assertEquals(new NamespacedName("apps", "podinfo"), key);
          written.add(change.apply(release));
          return true;
        };
    Clock clock = Clock.fixed(LATER, ZoneOffset.UTC);

    Told told =
        new ReleaseLiveHealth(updates, clock, r -> true)
            .tell(new NamespacedName("apps", "podinfo"), health(Status.Failed));
    assertEquals(Told.WRITTEN, told);
    assertEquals("False", condition(written.get(0), "Healthy").getStatus());

    Told notOurs =
        new ReleaseLiveHealth(updates, clock, r -> false)
            .tell(new NamespacedName("apps", "podinfo"), health(Status.Failed));
    assertEquals(Told.UNCHANGED, notOurs);
    assertSame(release.getStatus(), written.get(1));
  }

  private static AggregateHealth health(Status status) {
    String message = status == Status.Current ? "" : "Deployment/apps/podinfo is " + status;
    return new AggregateHealth(status, message, List.of(), List.of(), 2);
  }

  private static HelmRelease released() {
    try (InputStream in =
        ReleaseLiveHealthTest.class.getResourceAsStream("/helmrelease/live-health/released.yaml")) {
      return SERIALIZATION.unmarshal(
          new String(in.readAllBytes(), StandardCharsets.UTF_8), HelmRelease.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The spec of {@code release} with {@code field} set, through its JSON form. */
  private static HelmReleaseSpec withSpec(HelmRelease release, String field, Object value) {
    @SuppressWarnings("unchecked")
    Map<String, Object> json = SERIALIZATION.convertValue(release.getSpec(), Map.class);
    json.put(field, value);
    return SERIALIZATION.convertValue(json, HelmReleaseSpec.class);
  }

  private static HelmReleaseStatus withHealthy(
      HelmReleaseStatus status, String value, String reason) {
    return withCondition(status, "Healthy", value, reason);
  }

  private static HelmReleaseStatus withReleased(HelmReleaseStatus status, String value) {
    return withCondition(status, "Released", value, "InstallFailed");
  }

  /** The status, its condition {@code type} replaced, through its JSON form. */
  private static HelmReleaseStatus withCondition(
      HelmReleaseStatus status, String type, String value, String reason) {
    List<Condition> conditions = new ArrayList<>();
    for (Condition c : status.conditions()) {
      Condition copy = SERIALIZATION.clone(c);
      if (type.equals(c.getType())) {
        copy.setStatus(value);
        copy.setReason(reason);
      }
      conditions.add(copy);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> json = SERIALIZATION.convertValue(status, Map.class);
    json.put("conditions", conditions);
    return SERIALIZATION.convertValue(json, HelmReleaseStatus.class);
  }

  private static List<String> summary(HelmReleaseStatus status, String type) {
    Condition c = condition(status, type);
    return List.of(c.getStatus(), c.getReason(), c.getMessage());
  }

  private static Condition condition(HelmReleaseStatus status, String type) {
    return HelmReleaseStatuses.condition(status, type).orElseThrow();
  }
}
