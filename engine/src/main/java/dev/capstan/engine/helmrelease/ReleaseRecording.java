package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.helm.release.HelmTime;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseBuilder;
import dev.capstan.helm.release.ReleaseChart;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseHook;
import dev.capstan.helm.release.ReleaseInfo;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseRecordException;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kustomize.chart.ChartRender;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release records of an install or upgrade, written as Helm writes them: the history pruned to
 * {@code maxHistory - 1}, the new version created pending, then deployed (the deployed one before
 * it superseded) or failed with the error as its description.
 */
final class ReleaseRecording {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Logger LOG = LoggerFactory.getLogger(HelmReleasePipeline.class);
  private static final Set<ReleaseStatus> PENDING =
      EnumSet.of(
          ReleaseStatus.PENDING_INSTALL,
          ReleaseStatus.PENDING_UPGRADE,
          ReleaseStatus.PENDING_ROLLBACK);

  private final ReleaseStore store;
  private final Clock clock;

  /** Values from Secrets, redacted from a failed record\'s description. */
  private final Plaintexts secrets;

  ReleaseRecording(ReleaseStore store, Clock clock, Plaintexts secrets) {
    this.store = store;
    this.clock = clock;
    this.secrets = secrets;
  }

  /** A release being installed or upgraded: its pending record and the one it replaces. */
  record Pending(
      ReleaseRecord record, Optional<ReleaseRecord> replaces, ReleaseAction action, String where) {

    /** This release with its record as last written (a hook's run changed it). */
    Pending withRecord(ReleaseRecord written) {
      return new Pending(written, replaces, action, where);
    }
  }

  /**
   * The latest record of {@code history} when it is an install or upgrade waiting for one of its
   * hooks: the release to go on with; empty otherwise.
   */
  static Optional<Pending> waitingForHook(ReleaseHistory history) {
    Optional<ReleaseRecord> latest = history.latest();
    if (latest.isEmpty() || !ReleaseHooks.running(latest.get())) {
      return Optional.empty();
    }
    ReleaseStatus status = latest.get().release().status();
    if (status != ReleaseStatus.PENDING_INSTALL && status != ReleaseStatus.PENDING_UPGRADE) {
      return Optional.empty();
    }
    ReleaseAction action =
        status == ReleaseStatus.PENDING_INSTALL ? ReleaseAction.install : ReleaseAction.upgrade;
    return Optional.of(
        new Pending(latest.get(), history.lastDeployed(), action, where(latest.get().release())));
  }

  /** The records of {@code release}; corrupt or tampered ones stop the reconcile by name. */
  ReleaseHistory history(HelmRelease release) {
    return history(store::history, release);
  }

  /**
   * The records of {@code release} read from {@code records}, in its storage namespace: the one
   * lookup the pipeline and a preview share.
   */
  static ReleaseHistory history(ReleaseHistories records, HelmRelease release) {
    try {
      return records.history(release.storageNamespace(), release.releaseName());
    } catch (ReleaseRecordException e) {
      throw ReleaseFailure.failed(ReleaseReason.INIT_FAILED, e.getMessage());
    }
  }

  /**
   * Prunes the history and creates the next version, pending, for an upgrade ({@code upgrade}) or
   * an install; either replaces the last deployed record, if one is left.
   */
  Pending begin(
      HelmRelease release,
      ReleaseHistory history,
      boolean upgrade,
      ChartRender render,
      Map<String, Object> values) {
    return begin(release, history, upgrade, render, values, List.of());
  }

  /** {@link #begin} of a release whose record keeps {@code hooks}, none run yet. */
  Pending begin(
      HelmRelease release,
      ReleaseHistory history,
      boolean upgrade,
      ChartRender render,
      Map<String, Object> values,
      List<ReleaseHook> hooks) {
    Optional<ReleaseRecord> deployed = history.lastDeployed();
    ReleaseAction action = upgrade ? ReleaseAction.upgrade : ReleaseAction.install;
    ReleaseReason failure =
        action == ReleaseAction.install
            ? ReleaseReason.INSTALL_FAILED
            : ReleaseReason.UPGRADE_FAILED;
    String now = HelmTime.format(clock.instant());
    String first =
        history.records().stream()
            .map(r -> r.release().info())
            .filter(i -> i != null && i.firstDeployed() != null)
            .map(ReleaseInfo::firstDeployed)
            .findFirst()
            .orElse(now);
    Release next =
        ReleaseBuilder.builder()
            .name(release.releaseName())
            .namespace(release.releaseNamespace())
            .version(history.nextVersion())
            .info(
                new ReleaseInfo(
                    first,
                    now,
                    null,
                    action == ReleaseAction.install
                        ? "Initial install underway"
                        : "Preparing upgrade",
                    action == ReleaseAction.install
                        ? ReleaseStatus.PENDING_INSTALL
                        : ReleaseStatus.PENDING_UPGRADE,
                    render.notes().isEmpty() ? null : render.notes()))
            .chart(chart(render.chart()))
            .config(config(values))
            .manifest(render.manifest())
            .hooks(hooks)
            .applyMethod(Release.SERVER_SIDE_APPLY)
            .build();
    try {
      ReleaseRecord created =
          store.createNext(
              release.storageNamespace(), history, release.getSpec().effectiveMaxHistory(), next);
      return new Pending(created, deployed, action, where(next));
    } catch (ReleaseRecordException e) {
      throw ReleaseFailure.releaseFailed(failure, e.getMessage());
    }
  }

  /**
   * The pending release deployed, then the one it replaces superseded; returns its snapshot. Once
   * the new record is deployed the release is done: a supersede that fails is logged, and the next
   * release supersedes it again (Helm takes the highest deployed version as the current).
   */
  ReleaseSnapshot deployed(Pending pending, String configDigest) {
    String description =
        pending.action() == ReleaseAction.install ? "Install complete" : "Upgrade complete";
    ReleaseSnapshot deployed;
    try {
      deployed =
          snapshot(
              store
                  .update(pending.record(), ended(pending, ReleaseStatus.DEPLOYED, description))
                  .release(),
              pending.action(),
              configDigest);
    } catch (ReleaseRecordException e) {
      throw ReleaseFailure.releaseFailed(failureReason(pending), e.getMessage());
    }
    pending.replaces().ifPresent(replaced -> supersede(store, replaced));
    return deployed;
  }

  /**
   * {@code replaced} marked superseded by a newer deployed release; logged when it cannot be
   * written, as the newer release's own record is what counts.
   */
  static void supersede(ReleaseStore store, ReleaseRecord replaced) {
    try {
      store.update(replaced, replaced.release().withStatus(ReleaseStatus.SUPERSEDED));
    } catch (ReleaseRecordException | RuntimeException e) {
      LOG.warn("{}: not marked superseded: {}", where(replaced.release()), e.getMessage());
    }
  }

  /**
   * The history with a latest record left pending (its reconcile ended, or the engine stopped,
   * midway) marked failed, as Flux's helm-controller unlocks a release; {@code history} itself when
   * the latest record is not pending.
   */
  ReleaseHistory unlocked(HelmRelease release, ReleaseHistory history) {
    Optional<ReleaseRecord> latest = history.latest();
    if (latest.isEmpty() || !PENDING.contains(latest.get().release().status())) {
      return history;
    }
    Release left = latest.get().release();
    try {
      store.update(
          latest.get(),
          left.withInfo(
              left.info()
                  .withStatus(ReleaseStatus.FAILED)
                  .withDescription(
                      "Release was left "
                          + left.status().helmName()
                          + ": its reconcile ended before it completed")));
    } catch (ReleaseRecordException e) {
      throw ReleaseFailure.failed(ReleaseReason.INIT_FAILED, e.getMessage());
    }
    LOG.info("{}: left {}, marked failed", where(left), left.status().helmName());
    return history(release);
  }

  /**
   * The pending release failed with {@code message} (its description, as Helm keeps it, with every
   * value from a Secret it quotes redacted); returns its snapshot, or empty when the record could
   * not be written either.
   */
  Optional<ReleaseSnapshot> failed(Pending pending, String message, String configDigest) {
    try {
      return Optional.of(
          snapshot(
              store
                  .update(
                      pending.record(),
                      ended(pending, ReleaseStatus.FAILED, secrets.redact(message)))
                  .release(),
              pending.action(),
              configDigest));
    } catch (ReleaseRecordException e) {
      return Optional.empty();
    }
  }

  /** {@link #failed}, logged when even that cannot be written. */
  void failedQuietly(Pending pending, String message, String configDigest) {
    try {
      failed(pending, message, configDigest);
    } catch (RuntimeException alsoFailed) {
      LOG.warn(
          "{}: not marked failed: {}", pending.where(), secrets.redact(alsoFailed.getMessage()));
    }
  }

  static ReleaseReason failureReason(Pending pending) {
    return pending.action() == ReleaseAction.install
        ? ReleaseReason.INSTALL_FAILED
        : ReleaseReason.UPGRADE_FAILED;
  }

  private Release ended(Pending pending, ReleaseStatus status, String description) {
    Release release = pending.record().release();
    return release.withInfo(
        release
            .info()
            .withLastDeployed(HelmTime.format(clock.instant()))
            .withStatus(status)
            .withDescription(description));
  }

  /** The values as a release record keeps them, its {@code config}. */
  static JsonNode config(Map<String, Object> values) {
    return JSON.valueToTree(values);
  }

  /** {@code <namespace>/<name>.v<version>}, as Flux's messages name a release. */
  static String where(Release release) {
    return release.namespace() + "/" + release.name() + ".v" + release.version();
  }

  /** Chart.yaml's fields a release record's readers use: name, version and appVersion. */
  private static ReleaseChart chart(ChartRender.Chart chart) {
    ObjectNode metadata = JSON.createObjectNode();
    metadata.put("name", chart.name());
    metadata.put("version", chart.version());
    if (chart.appVersion() != null && !chart.appVersion().isEmpty()) {
      metadata.put("appVersion", chart.appVersion());
    }
    metadata.put("apiVersion", "v2");
    return ReleaseChart.of(metadata, List.of(), null);
  }

  /** A snapshot of {@code release} for {@code status.history}, as Flux writes one. */
  static ReleaseSnapshot snapshot(Release release, ReleaseAction action, String configDigest) {
    return snapshot(release, action == null ? null : action.name(), configDigest);
  }

  /**
   * A snapshot of {@code release} made by {@code action}, as Flux names it ({@code install}, {@code
   * upgrade}, {@code rollback}, {@code uninstall-remediation}).
   */
  static ReleaseSnapshot snapshot(Release release, String action, String configDigest) {
    ReleaseInfo info = release.info();
    return new ReleaseSnapshot(
        null,
        digest(release),
        release.name(),
        release.namespace(),
        release.version(),
        release.status().helmName(),
        action,
        release.chart().name(),
        release.chart().version(),
        release.chart().appVersion().isEmpty() ? null : release.chart().appVersion(),
        configDigest,
        info.firstDeployed(),
        info.lastDeployed(),
        info.deleted(),
        null,
        null);
  }

  /**
   * An install's or upgrade's snapshot with the digest of the OCI artifact its chart came from, as
   * Flux's helm-controller keeps it ({@code ociDigest}); {@code snapshot} itself for a HelmChart.
   */
  static ReleaseSnapshot fromChart(ReleaseSnapshot snapshot, ChartArtifact chart) {
    String ociDigest = chart.ociDigest();
    return ociDigest == null ? snapshot : snapshot.withOciDigest(ociDigest);
  }

  /** {@code sha256:<hex>} of the release JSON. */
  private static String digest(Release release) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(JSON.writeValueAsString(release).getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(hash);
    } catch (JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("a release is always JSON and SHA-256 always there", e);
    }
  }
}
