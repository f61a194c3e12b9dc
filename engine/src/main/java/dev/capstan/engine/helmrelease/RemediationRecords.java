package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.helm.release.HelmTime;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseRecordException;
import dev.capstan.helm.release.ReleaseStatus;
import java.time.Clock;
import java.util.Comparator;
import java.util.Optional;

/**
 * The release records of a failed wait and of a rollback, written as Helm writes them: a release
 * whose objects did not become healthy is marked failed ({@code Upgrade "<name>" failed: ...}) and
 * the release an upgrade replaced is deployed again, as Helm leaves them when its wait fails; a
 * rollback is a new version, pending then deployed, holding the chart, values and manifest of the
 * version it goes back to, described {@code Rollback to <N>}, with every deployed record before it
 * superseded.
 */
final class RemediationRecords {
  private final ReleaseStore store;
  private final Clock clock;

  /** Values from Secrets, redacted from a failed record's description. */
  private final Plaintexts secrets;

  RemediationRecords(ReleaseStore store, Clock clock, Plaintexts secrets) {
    this.store = store;
    this.clock = clock;
    this.secrets = secrets;
  }

  /** A rollback being made: its pending record and the version it goes back to. */
  record PendingRollback(ReleaseRecord record, int target) {}

  /**
   * The latest record, deployed by an install or upgrade whose objects did not become healthy,
   * marked failed with {@code error}; for an upgrade, the release it replaced deployed again first,
   * so that a write that fails leaves the wait to end again (the next reconcile retries it) rather
   * than a failed upgrade with nothing to roll back to. Returns the failed release.
   */
  Release waitFailed(ReleaseRecord latest, ReleaseHistory history, boolean upgrade, String error) {
    Release release = latest.release();
    if (upgrade) {
      previous(history, release.version())
          .filter(r -> r.release().status() != ReleaseStatus.DEPLOYED)
          .ifPresent(this::redeploy);
    }
    String description =
        (upgrade ? "Upgrade \"" : "Release \"")
            + release.name()
            + "\" failed: "
            + secrets.redact(error);
    Release failed =
        release.withInfo(
            release.info().withStatus(ReleaseStatus.FAILED).withDescription(description));
    try {
      store.update(latest, failed);
    } catch (ReleaseRecordException e) {
      throw ReleaseFailure.failed(ReleaseReason.INIT_FAILED, e.getMessage());
    }
    return failed;
  }

  /**
   * The release an upgrade to {@code version} replaced, as Flux's history reads it: the newest
   * deployed or superseded record before it (failed attempts in between skipped).
   */
  static Optional<ReleaseRecord> previous(ReleaseHistory history, int version) {
    return history.records().stream()
        .filter(r -> r.release().version() < version)
        .filter(
            r ->
                r.release().status() == ReleaseStatus.SUPERSEDED
                    || r.release().status() == ReleaseStatus.DEPLOYED)
        .max(Comparator.comparingInt(r -> r.release().version()));
  }

  private void redeploy(ReleaseRecord record) {
    try {
      store.update(record, record.release().withStatus(ReleaseStatus.DEPLOYED));
    } catch (ReleaseRecordException e) {
      throw ReleaseFailure.failed(ReleaseReason.INIT_FAILED, e.getMessage());
    }
  }

  /**
   * Prunes the history and creates the next version, pending, as a copy of {@code target}: its
   * chart, values, manifest, hooks and notes.
   */
  PendingRollback begin(HelmRelease release, ReleaseHistory history, ReleaseRecord target) {
    Release to = target.release();
    String now = HelmTime.format(clock.instant());
    String first =
        history
            .latest()
            .map(r -> r.release().info().firstDeployed())
            .orElse(to.info().firstDeployed());
    Release next =
        to.withVersion(history.nextVersion())
            .withInfo(
                to.info()
                    .withFirstDeployed(first)
                    .withLastDeployed(now)
                    .withDeleted(null)
                    .withStatus(ReleaseStatus.PENDING_ROLLBACK)
                    .withDescription("Rollback to " + to.version()));
    try {
      ReleaseRecord created =
          store.createNext(
              release.storageNamespace(), history, release.getSpec().effectiveMaxHistory(), next);
      return new PendingRollback(created, to.version());
    } catch (ReleaseRecordException e) {
      throw ReleaseFailure.failed(ReleaseReason.ROLLBACK_FAILED, e.getMessage());
    }
  }

  /** The rollback deployed and every deployed record before it superseded; returns it. */
  Release rolledBack(PendingRollback pending, ReleaseHistory history) {
    Release done;
    try {
      done = store.update(pending.record(), ended(pending, ReleaseStatus.DEPLOYED, null)).release();
    } catch (ReleaseRecordException e) {
      throw ReleaseFailure.failed(ReleaseReason.ROLLBACK_FAILED, e.getMessage());
    }
    int version = done.version();
    history.records().stream()
        .filter(r -> r.release().status() == ReleaseStatus.DEPLOYED)
        .filter(r -> r.release().version() < version)
        .forEach(r -> ReleaseRecording.supersede(store, r));
    return done;
  }

  /** The rollback failed with {@code error}, as its description says; empty when not written. */
  Optional<Release> rollbackFailed(PendingRollback pending, String error) {
    String description =
        "Rollback \"" + pending.record().release().name() + "\" failed: " + secrets.redact(error);
    try {
      return Optional.of(
          store
              .update(pending.record(), ended(pending, ReleaseStatus.FAILED, description))
              .release());
    } catch (ReleaseRecordException e) {
      return Optional.empty();
    }
  }

  private Release ended(PendingRollback pending, ReleaseStatus status, String description) {
    Release release = pending.record().release();
    var info = release.info().withLastDeployed(HelmTime.format(clock.instant())).withStatus(status);
    return release.withInfo(description == null ? info : info.withDescription(description));
  }
}
