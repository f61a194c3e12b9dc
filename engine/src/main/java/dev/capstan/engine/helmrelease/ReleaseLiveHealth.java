package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.applier.common.Owner;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.ConditionTypes;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * HelmReleases as owners of the objects the health monitor watches: between reconciles, a change of
 * health of a released HelmRelease's objects rewrites its Healthy condition alone, judged as the
 * reconcile's look judges it; no release record is read or written and nothing is rendered. What is
 * written while a reconcile of the HelmRelease is in flight, or while its wait is pending.
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

  /**
   * HelmReleases a reconcile is working on: mid-upgrade their objects are judged by that reconcile,
   * and the monitor writes nothing until it ends.
   */
  private final Set<NamespacedName> reconciling = ConcurrentHashMap.newKeySet();

  /** Reconciles in flight that tracked their objects again, with the health they wrote. */
  private final Set<NamespacedName> trackedByReconcile = ConcurrentHashMap.newKeySet();

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
    if (reconciling.contains(key)) {
      return Told.UNCHANGED; // looked at again when the reconcile ends
    }
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
   * What {@code health} does to {@code release}: nothing while it is not Released, a reconcile's
   * wait for its objects is pending (that reconcile looks again soon), or it acts as a service
   * account (the monitor reads as the engine, which may see what the account may not); otherwise
   * Healthy rewritten from the objects as they are. The wait ended: progressing objects never
   * reopen it nor wake a reconcile, so nothing here can fail or remediate the release.
   */
  static Decision decide(
      HelmRelease release, AggregateHealth health, Plaintexts secrets, Instant now) {
    HelmReleaseStatus status = release.getStatus();
    if (release.getSpec() == null
        || release.getSpec().serviceAccountName() != null
        || !released(status)
        || ReleaseDecision.Observed.waitPending(status)) {
      return new Decision(Told.UNCHANGED, status);
    }
    HealthState state = ReleaseHealth.afterWait(health);
    return new Decision(
        Told.WRITTEN, ReleaseStatusStage.withLiveHealth(release, health, state, secrets, now));
  }

  private static boolean released(HelmReleaseStatus status) {
    return HelmReleaseStatuses.condition(status, HelmReleaseStatuses.RELEASED)
        .filter(c -> ConditionTypes.TRUE.equals(c.getStatus()))
        .isPresent();
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
          Optional<HealthTracking.RemoteCluster> cluster,
          Optional<AggregateHealth> written) {
        if (fromSecrets.isEmpty()) {
          secrets.remove(key);
        } else {
          secrets.put(key, fromSecrets);
        }
        monitor.track(key, objects, evaluator, Optional.empty(), cluster, written);
        if (reconciling.contains(key)) {
          trackedByReconcile.add(key);
        }
      }

      @Override
      public void reconciling(NamespacedName key) {
        reconciling.add(key);
        trackedByReconcile.remove(key);
        monitor.rewriting(key); // what it writes is told by its track, if it tracks again
      }

      @Override
      public void reconciled(NamespacedName key) {
        reconciling.remove(key);
        if (!trackedByReconcile.remove(key)) {
          // a reconcile that did not track (it failed, or untracked) wrote a status the monitor
          // cannot know; a look the monitor began before the reconcile may have told it otherwise
          monitor.rewriting(key);
        }
        monitor.reevaluate(key);
      }

      @Override
      public void untrack(NamespacedName key) {
        monitor.untrack(key);
        secrets.remove(key);
      }

      @Override
      public Optional<AggregateHealth> watched(
          NamespacedName key, List<ObjectRef> objects, HealthEvaluator evaluator) {
        return monitor.watched(key, objects, evaluator);
      }
    };
  }
}
