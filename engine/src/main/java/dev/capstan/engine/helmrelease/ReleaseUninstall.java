package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.Uninstall;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.Inventories;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.helm.release.HelmTime;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseRecordException;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A deleted HelmRelease uninstalled as {@code helm uninstall} does: the release's objects deleted,
 * then its records deleted (or, with {@code uninstall.keepHistory}, the latest kept and marked
 * uninstalled), then the HelmChart made for it. A suspended HelmRelease is let go without an
 * uninstall, as Flux lets it go.
 */
final class ReleaseUninstall {
  private static final Logger LOG = LoggerFactory.getLogger(HelmReleasePipeline.class);
  private static final Duration AGAIN = Duration.ofSeconds(10);

  private final Acting acting;
  private final ReleaseStore store;
  private final ChartSources charts;
  private final HookEventRun hooks;
  private final Clock clock;

  ReleaseUninstall(
      Acting acting, ReleaseStore store, ChartSources charts, HookEventRun hooks, Clock clock) {
    this.acting = acting;
    this.store = store;
    this.charts = charts;
    this.hooks = hooks;
    this.clock = clock;
  }

  /**
   * The uninstall as {@code actor} acts, with {@code parts}' charts and clock, its hooks judged by
   * the hook checks of {@code evaluators}.
   */
  static ReleaseUninstall of(
      ReleaseActors.Actor actor, ReleaseParts parts, ReleaseEvaluators evaluators) {
    return new ReleaseUninstall(
        actor.acting(),
        actor.store(),
        parts.charts(),
        HookEventRun.of(actor, parts, evaluators),
        parts.clock());
  }

  /**
   * The deleted {@code release} uninstalled by whoever {@code actors} chooses, in its own or its
   * remote cluster. Empty when it may go; otherwise when to try again. A release never installed
   * (nothing attempted, no history) goes without reaching any cluster, as Flux lets a release with
   * no storage namespace go; so does one whose remote cluster's Secret or ConfigMap is gone.
   *
   * @throws ReleaseFailure when its remote cluster cannot be used otherwise, or a hook or the
   *     deletion of its objects failed: the deletion waits
   */
  static Optional<Duration> deleting(
      HelmRelease release, ReleaseParts parts, ReleaseEvaluators evaluators) {
    ReleaseActors actors = parts.actors();
    ChartSources charts = parts.charts();
    if (release.getSpec() == null || release.getSpec().suspended() || neverInstalled(release)) {
      charts.forget(release); // let go without an uninstall: no cluster is reached for it
      actors.forget(release);
      return Optional.empty();
    }
    Optional<ReleaseActors.Actor> actor = actors.uninstallerFor(release);
    if (actor.isEmpty()) {
      LOG.warn(
          "{}: not uninstalled: the kubeconfig of its remote cluster is gone",
          NamespacedName.of(release));
      charts.forget(release);
      actors.forget(release);
      return Optional.empty();
    }
    Optional<Duration> again = of(actor.get(), parts, evaluators).delete(release);
    if (again.isEmpty()) {
      actors.forget(release);
    }
    return again;
  }

  /** Nothing of {@code release} can be in any cluster: no install was attempted, none recorded. */
  static boolean neverInstalled(HelmRelease release) {
    HelmReleaseStatus status = release.getStatus();
    return status == null
        || status.storageNamespace() == null
        || status.storageNamespace().isEmpty()
        || (status.lastAttemptedGeneration() == null
            && (status.history() == null || status.history().isEmpty())
            && (status.inventory() == null
                || status.inventory().entries() == null
                || status.inventory().entries().isEmpty()));
  }

  /**
   * Empty when the HelmRelease may go; otherwise when to try again (the API server could not be
   * reached, or refused a record's write).
   *
   * @throws ReleaseFailure when a hook or the objects' deletion failed: the status says so
   */
  Optional<Duration> delete(HelmRelease release) {
    try {
      if (release.getSpec() != null && !release.getSpec().suspended()) {
        uninstalled(release);
      }
      charts.forget(release);
      return Optional.empty();
    } catch (UninstallFailed | ReleaseHooks.Failed e) {
      throw ReleaseFailure.failed(ReleaseReason.UNINSTALL_FAILED, e.getMessage());
    } catch (ReleaseRecordException | KubernetesClientException e) {
      LOG.warn(
          "{}/{}: uninstall failed: {}",
          release.getMetadata().getNamespace(),
          release.getMetadata().getName(),
          e.getMessage());
      return Optional.of(AGAIN);
    }
  }

  /**
   * The release uninstalled as {@code helm uninstall} does, its HelmChart kept: the remediation of
   * a failed release. Empty when done, else why not.
   */
  Optional<String> uninstall(HelmRelease release) {
    try {
      uninstalled(release);
      return Optional.empty();
    } catch (UninstallFailed
        | ReleaseHooks.Failed
        | ReleaseRecordException
        | KubernetesClientException e) {
      return Optional.of(String.valueOf(e.getMessage()));
    }
  }

  /**
   * As {@code helm uninstall}: the latest record's {@code pre-delete} hooks, its objects deleted,
   * its {@code post-delete} hooks, then its records; the hooks unless {@code
   * uninstall.disableHooks}. A {@code pre-delete} hook that fails or is not done within {@code
   * uninstall.timeout} fails the uninstall with every record kept, the hook's run in the latest. A
   * {@code post-delete} one is reported, yet the records go (or the latest is marked uninstalled)
   * first, so the next try finds the release gone and runs no {@code pre-delete} hook twice. A
   * latest record already uninstalled (kept by {@code keepHistory}) runs no hook again: its records
   * go unless {@code keepHistory}.
   */
  private void uninstalled(HelmRelease asSpecified) throws UninstallFailed, ReleaseRecordException {
    // the release the status recorded, which a changed target leaves where it was
    HelmRelease release = ReleaseTarget.recorded(asSpecified);
    Optional<ReleaseRecord> latest =
        store.history(release.storageNamespace(), release.releaseName()).latest();
    if (latest.isPresent() && latest.get().release().status() == ReleaseStatus.UNINSTALLED) {
      if (!keepsHistory(release)) {
        deleteRecords(release);
      }
      return;
    }
    Uninstall uninstall = release.getSpec().effectiveUninstall();
    Duration timeout = uninstall.effectiveTimeout(release.getSpec().effectiveTimeout());
    Optional<ReleaseRecord> hooked = latest.filter(r -> uninstall.runsHooks());
    if (hooked.isPresent()) {
      hooked = Optional.of(hooks.run(release, hooked.get(), HookEvent.PRE_DELETE, timeout));
    }
    deleteObjects(release, timeout);
    Optional<ReleaseHooks.Failed> post = Optional.empty();
    if (hooked.isPresent()) {
      try {
        hooks.run(release, hooked.get(), HookEvent.POST_DELETE, timeout);
      } catch (ReleaseHooks.Failed e) {
        post = Optional.of(e);
      }
    }
    deleteRecords(release);
    if (post.isPresent()) {
      throw new UninstallFailed("uninstalled, but " + post.get().getMessage());
    }
  }

  private static boolean keepsHistory(HelmRelease release) {
    return Boolean.TRUE.equals(release.getSpec().effectiveUninstall().keepHistory());
  }

  private void deleteObjects(HelmRelease release, Duration timeout)
      throws UninstallFailed, ReleaseRecordException {
    HelmReleaseStatus status = release.getStatus();
    InventorySet inventory = Inventories.toApplier(status == null ? null : status.inventory());
    if (inventory.entries().isEmpty()) {
      // Nothing recorded yet (an adopted release before its first upgrade, or an apply that failed
      // partway): the objects are those of the release's last manifest, as helm uninstall reads
      // them; the owner rules still leave alone what is another's or kept.
      inventory = Inventories.union(inventory, lastManifest(release));
    }
    List<ObjectResult> failed =
        acting
            .pruner()
            .deleteInventory(inventory, ReleaseApply.owner(release), timeout, false)
            .stream()
            .filter(ObjectResult::failed)
            .toList();
    if (!failed.isEmpty()) {
      throw new UninstallFailed("deleting its objects failed: " + ObjectFailures.describe(failed));
    }
  }

  private List<ObjectRef> lastManifest(HelmRelease release) throws ReleaseRecordException {
    Optional<ReleaseRecord> deployed =
        store.history(release.storageNamespace(), release.releaseName()).lastDeployed();
    try {
      return List.copyOf(
          ReleaseAdoption.baseline(deployed.map(ReleaseRecord::release), release.getStatus())
              .refs());
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "{}/{}: the last release's manifest cannot be read; only its recorded objects go",
          release.getMetadata().getNamespace(),
          release.getMetadata().getName());
      return List.of();
    }
  }

  private void deleteRecords(HelmRelease release) throws ReleaseRecordException {
    ReleaseHistory history = store.history(release.storageNamespace(), release.releaseName());
    boolean keep = keepsHistory(release);
    Optional<ReleaseRecord> latest = history.latest();
    for (ReleaseRecord record : history.records()) {
      if (keep && latest.isPresent() && latest.get().equals(record)) {
        var uninstalled = record.release().withStatus(ReleaseStatus.UNINSTALLED);
        store.update(
            record,
            uninstalled.withInfo(
                uninstalled
                    .info()
                    .withDeleted(HelmTime.format(clock.instant()))
                    .withDescription("Uninstallation complete")));
      } else if (!keep) {
        store.delete(record);
      }
    }
  }

  private static final class UninstallFailed extends Exception {
    UninstallFailed(String message) {
      super(message, null, false, false);
    }
  }
}
