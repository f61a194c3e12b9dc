package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.applier.common.Owner;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.HealthTracking;
import dev.capstan.engine.monitor.HealthOwners;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * HelmReleases as owners of the objects the health monitor watches: between reconciles, a change of
 * health of a released HelmRelease's objects rewrites its Healthy condition alone, judged as the
 * reconcile's look judges it; no release record is read or written and nothing is rendered. What is
 * not decided yet (objects still progressing within {@code spec.timeout} of the deploy) is left to
 * a reconcile, which is woken and waits for it as after a release.
 */
public final class ReleaseLiveHealth implements HealthOwners {

  /** Reads a HelmRelease, changes its status and writes it back (the engine's status writer). */
  @FunctionalInterface
  public interface StatusUpdates {
    /** Returns false when the HelmRelease does not exist. */
    boolean update(NamespacedName key, Function<HelmRelease, HelmReleaseStatus> change);
  }

  /** What the monitor does with one health of one HelmRelease. */
  record Decision(Told told, HelmReleaseStatus status) {}

  private final StatusUpdates statuses;
  private final Clock clock;
  private final Predicate<HasMetadata> owns;

  /** What came from Secrets into each tracked release's values: redacted from health messages. */
  private final Map<NamespacedName, Plaintexts> secrets = new ConcurrentHashMap<>();

  /** {@code owns}: whether this replica owns a HelmRelease (the others write theirs). */
  public ReleaseLiveHealth(StatusUpdates statuses, Clock clock, Predicate<HasMetadata> owns) {
    this.statuses = statuses;
    this.clock = clock;
    this.owns = owns;
  }

  @Override
  public String group() {
    return Owner.HELM_RELEASE_GROUP;
  }

  @Override
  public Told tell(NamespacedName key, AggregateHealth health) {
    AtomicReference<Told> told = new AtomicReference<>(Told.UNCHANGED);
    Plaintexts redact = secrets.getOrDefault(key, Plaintexts.NONE);
    statuses.update(
        key,
        release -> {
          if (!owns.test(release)) {
            told.set(Told.UNCHANGED);
            return release.getStatus();
          }
          Decision decision = decide(release, health, redact, clock.instant());
          told.set(decision.told());
          return decision.status();
        });
    return told.get();
  }

  /**
   * What {@code health} at {@code now} does to {@code release}: nothing while it is not Released or
   * a reconcile's wait for its objects is pending (that reconcile looks again soon); a reconcile
   * woken when the objects progress within {@code spec.timeout} of the deploy (a wait it decides);
   * otherwise Healthy rewritten from it.
   */
  static Decision decide(
      HelmRelease release, AggregateHealth health, Plaintexts secrets, Instant now) {
    HelmReleaseStatus status = release.getStatus();
    ReleaseSnapshot latest = status == null ? null : status.latest();
    Optional<Instant> deployedAt = deployedAt(latest);
    if (release.getSpec() == null
        || deployedAt.isEmpty()
        || !released(status)
        || ReleaseDecision.Observed.waitPending(status)) {
      return new Decision(Told.UNCHANGED, status);
    }
    HealthState state =
        ReleaseHealth.state(
            release.getSpec(), health, now, deployedAt.get(), "upgrade".equals(latest.action()));
    if (state == HealthState.IN_PROGRESS) {
      return new Decision(Told.WAITING, status);
    }
    return new Decision(
        Told.WRITTEN, ReleaseStatusStage.withLiveHealth(release, health, state, secrets, now));
  }

  private static boolean released(HelmReleaseStatus status) {
    return HelmReleaseStatuses.condition(status, HelmReleaseStatuses.RELEASED)
        .filter(c -> "True".equals(c.getStatus()))
        .isPresent();
  }

  private static Optional<Instant> deployedAt(ReleaseSnapshot latest) {
    if (latest == null || latest.lastDeployed() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(latest.lastDeployed()));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** The tracking the HelmRelease pipeline is given: {@code monitor}, with redaction kept here. */
  public ReleaseHealthTracking trackedBy(HealthTracking monitor) {
    return new ReleaseHealthTracking() {
      @Override
      public void track(
          NamespacedName key,
          List<ObjectRef> objects,
          HealthEvaluator evaluator,
          Plaintexts fromSecrets,
          Optional<AggregateHealth> written) {
        if (fromSecrets.isEmpty()) {
          secrets.remove(key);
        } else {
          secrets.put(key, fromSecrets);
        }
        monitor.track(key, objects, evaluator, Optional.empty(), Optional.empty(), written);
      }

      @Override
      public void untrack(NamespacedName key) {
        monitor.untrack(key);
        secrets.remove(key);
      }
    };
  }
}
