package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.conditions.ReleaseObservation;
import dev.capstan.engine.conditions.ReleaseObservationBuilder;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Inventories;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a HelmRelease's release is, as its status recorded it, against where its spec puts it now.
 * As with Flux, a release whose name, target namespace, storage namespace or chart name changed is
 * another release: the recorded one is uninstalled first (its hooks, objects and records), its
 * history and failures forgotten, and the next reconcile installs at the new target. Otherwise the
 * old release's records would stay behind, and its objects would block the new install.
 */
final class ReleaseTarget {
  private static final Logger LOG = LoggerFactory.getLogger(HelmReleasePipeline.class);

  private ReleaseTarget() {}

  /**
   * Why the release recorded last is not the one the spec names now, given the chart's name; empty
   * when it is, or when nothing was recorded (no storage namespace or no snapshot in the status).
   */
  static Optional<String> changed(HelmRelease release, ChartArtifact chart) {
    Optional<ReleaseSnapshot> recorded = recordedLatest(release);
    if (recorded.isEmpty()) {
      return Optional.empty();
    }
    ReleaseSnapshot latest = recorded.get();
    if (!release.getStatus().storageNamespace().equals(release.storageNamespace())) {
      return Optional.of("storage namespace changed");
    }
    if (!Objects.equals(latest.namespace(), release.releaseNamespace())) {
      return Optional.of("release namespace changed");
    }
    if (!Objects.equals(latest.name(), release.releaseName())) {
      return Optional.of("release name changed");
    }
    return chart.named(latest.chartName()) ? Optional.empty() : Optional.of("chart name changed");
  }

  /**
   * "chart name changed" when the chart just rendered, {@code chartName}, is not the one the status
   * recorded last: for a chart whose name only its render tells (an OCI artifact's, an
   * ExternalArtifact's), which {@link #changed} cannot compare before it.
   */
  static Optional<String> renamed(HelmRelease release, String chartName) {
    return recordedLatest(release)
        .map(ReleaseSnapshot::chartName)
        .filter(recorded -> !recorded.equals(chartName))
        .map(recorded -> "chart name changed");
  }

  /**
   * Where the release records are as the status says, else where the spec puts them. The status's
   * storage namespace moves to the spec's only once the release recorded there is known to be the
   * one the spec names ({@link #changed}), so that a reconcile failing before that forgets no
   * release.
   */
  static String recordedStorage(HelmRelease release) {
    HelmReleaseStatus status = release.getStatus();
    return status == null || isEmpty(status.storageNamespace())
        ? release.storageNamespace()
        : status.storageNamespace();
  }

  /** The newest snapshot of the status, when it also says where the records are. */
  private static Optional<ReleaseSnapshot> recordedLatest(HelmRelease release) {
    HelmReleaseStatus status = release.getStatus();
    return status == null || isEmpty(status.storageNamespace())
        ? Optional.empty()
        : Optional.ofNullable(status.latest());
  }

  /**
   * {@code release} with its spec naming the release its status recorded (the latest snapshot's
   * name and namespace, the status's storage namespace), what is not recorded taken from the spec:
   * the release an uninstall acts on. {@code release} itself when they are the same.
   */
  static HelmRelease recorded(HelmRelease release) {
    HelmReleaseStatus status = release.getStatus();
    ReleaseSnapshot latest = status == null ? null : status.latest();
    String name = latest == null ? release.releaseName() : latest.name();
    String namespace = latest == null ? release.releaseNamespace() : latest.namespace();
    String storage = recordedStorage(release);
    if (name.equals(release.releaseName())
        && namespace.equals(release.releaseNamespace())
        && storage.equals(release.storageNamespace())) {
      return release;
    }
    HelmRelease copy = new HelmRelease();
    copy.setMetadata(release.getMetadata());
    copy.setSpec(release.getSpec().withTarget(name, namespace, storage));
    copy.setStatus(status);
    return copy;
  }

  /**
   * The recorded release uninstalled because its target changed ({@code why}): the phase to write,
   * or the failure of the uninstall.
   *
   * @throws ReleaseFailure when the uninstall failed: the recorded release stays recorded
   */
  static ReleaseObservation.Retargeted uninstalled(
      HelmRelease release, String why, ReleaseUninstall uninstall) {
    String what = recordedRelease(release);
    Optional<String> failed = uninstall.uninstall(release);
    if (failed.isPresent()) {
      throw ReleaseFailure.failed(
          ReleaseReason.UNINSTALL_FAILED,
          "release target changed ("
              + why
              + "): Helm uninstall of "
              + what
              + " failed: "
              + failed.get());
    }
    String message =
        "Helm uninstall succeeded for " + what + ": release target changed (" + why + ")";
    LOG.info("{}: {}", NamespacedName.of(release), message);
    return new ReleaseObservation.Retargeted(message);
  }

  /**
   * What an uninstalled target leaves in the status: no storage namespace, no objects; Drifted as
   * it was, since nothing was looked at.
   */
  static void forgotten(HelmRelease release, ReleaseObservationBuilder seen) {
    seen.storageNamespace(null)
        .attempted(null) // as Flux: the last attempt stays what it was
        .inventory(Inventories.toStatus(InventorySet.EMPTY))
        .drift(ReleaseDrift.notLooked(release, false));
  }

  /**
   * The release the status recorded last, as a message names it: {@code release
   * <namespace>/<name>.v<version> with chart <name>@<version>}.
   */
  static String recordedRelease(HelmRelease release) {
    ReleaseSnapshot latest = release.getStatus().latest();
    return "release "
        + latest.namespace()
        + "/"
        + latest.name()
        + ".v"
        + latest.version()
        + " with chart "
        + latest.chartName()
        + "@"
        + latest.chartVersion();
  }

  private static boolean isEmpty(String s) {
    return s == null || s.isEmpty();
  }
}
