package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.kustomize.chart.ChartRender;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a new install or upgrade is made of before its record is begun: the rendered objects, the
 * release they replace (adopted when another client made it) and the chart's CRDs its {@code crds}
 * policy writes. Each failure to read them fails the release by name.
 */
final class ReleaseWork {
  private static final Logger LOG = LoggerFactory.getLogger(HelmReleasePipeline.class);

  private ReleaseWork() {}

  /** The objects of a render's manifest, with Helm's ownership annotations. */
  static List<GenericKubernetesResource> objects(
      ChartRender rendered, HelmRelease release, boolean upgrade) {
    try {
      return ManifestObjects.of(rendered.manifest(), release);
    } catch (IllegalArgumentException e) {
      throw ReleaseFailure.releaseFailed(reason(upgrade), e.getMessage());
    }
  }

  /**
   * The release the action replaces, its last deployed record; one this HelmRelease did not write
   * (made by {@code helm} or another controller) is adopted: continued as its next version.
   */
  static ReleaseAdoption.Baseline baseline(
      HelmRelease release, ReleaseHistory history, boolean upgrade) {
    if (!upgrade) {
      return ReleaseAdoption.Baseline.NONE; // an install replaces nothing, as Helm's never prunes
    }
    Optional<ReleaseRecord> deployed = history.lastDeployed();
    ReleaseAdoption.Baseline baseline;
    try {
      baseline =
          ReleaseAdoption.baseline(deployed.map(ReleaseRecord::release), release.getStatus());
    } catch (IllegalArgumentException e) {
      throw ReleaseFailure.releaseFailed(
          ReleaseReason.UPGRADE_FAILED,
          "the manifest of release "
              + ReleaseRecording.where(deployed.orElseThrow().release())
              + " cannot be read: "
              + e.getMessage());
    }
    if (baseline.foreign()) {
      LOG.info(
          "{}: adopting release {}, which another client made",
          NamespacedName.of(release),
          ReleaseRecording.where(deployed.orElseThrow().release()));
    }
    return baseline;
  }

  /** The chart's CRDs the action writes, by its {@code crds} policy. */
  static List<GenericKubernetesResource> crds(
      ReleaseRender.Rendered rendered, ReleaseActors.CrdLookup lookup, boolean upgrade) {
    try {
      return ReleaseCrds.toWrite(rendered.crds(), rendered.crdsPolicy(), lookup);
    } catch (IllegalArgumentException e) {
      throw ReleaseFailure.releaseFailed(reason(upgrade), e.getMessage());
    }
  }

  private static ReleaseReason reason(boolean upgrade) {
    return upgrade ? ReleaseReason.UPGRADE_FAILED : ReleaseReason.INSTALL_FAILED;
  }
}
