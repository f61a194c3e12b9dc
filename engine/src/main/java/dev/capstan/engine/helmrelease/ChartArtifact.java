package dev.capstan.engine.helmrelease;

import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.kustomize.chart.ChartVersionPin;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A HelmRelease's chart, as its source stored it: the artifact's revision (a HelmChart's is the
 * chart's version, an OCIRepository's {@code <tag>@<digest>} or its digest alone), the artifact's
 * digest, and where the packaged chart lies in the engine's store.
 *
 * @param oci whether the source is an OCIRepository (else a HelmChart)
 * @param source {@code Kind 'namespace/name'} of the HelmChart or OCIRepository
 * @param root the stored tree of the artifact (the render reads nothing outside it)
 * @param chart the chart archive or directory, relative to {@code root}
 * @param chartName the chart's name as its source found it (a HelmChart's {@code
 *     status.observedChartName}); null when the source does not say (an OCI chart's version carries
 *     its digest instead)
 */
public record ChartArtifact(
    boolean oci,
    String source,
    String revision,
    String digest,
    Path root,
    String chart,
    String chartName) {

  /** How long the digest part of an OCI chart's version is, as Flux writes it. */
  private static final int BUILD_LENGTH = 12;

  /**
   * Whether a release record of chart {@code recordedName} could be of this chart: a HelmChart that
   * now builds another chart (a new path or name) at the same version is a new chart.
   */
  public boolean named(String recordedName) {
    return chartName == null || chartName.equals(recordedName);
  }

  /**
   * Whether a release record that keeps chart version {@code recorded} was made of this chart. A
   * HelmChart's revision is the chart's version. An OCI chart's recorded version carries the first
   * 12 hex digits of the artifact's digest as its build metadata, as Flux's helm-controller writes
   * it, and the tag pulled by must still name that version: a tag moved to the same digest (such as
   * {@code latest}) is then rendered, which refuses it as Flux does.
   *
   * @throws ReleaseFailure ChartMutateError when the revision's digest is not one
   */
  public boolean madeOf(String recorded) {
    if (recorded == null) {
      return false;
    }
    if (!oci) {
      return recorded.equals(revision);
    }
    ChartVersionPin pin = versionPin();
    int plus = recorded.indexOf('+');
    return plus >= 0
        && recorded.substring(plus + 1).equals(pin.build())
        && (pin.tag().isEmpty() || sameVersion(pin.tag(), recorded));
  }

  /** Whether two versions are equal but for build metadata, read as Helm reads them. */
  private static boolean sameVersion(String tag, String recorded) {
    Optional<HelmVersion> a = HelmVersion.parse(tag);
    return a.isPresent() && a.equals(HelmVersion.parse(recorded));
  }

  /**
   * The chart's version as the status records an attempt of it ({@code lastAttemptedRevision}), as
   * Flux's helm-controller writes it: a HelmChart's revision; an OCI chart pulled by the tag of its
   * version, that version with the digest's first 12 hex digits as its build metadata, as the
   * render pins it. Pulled by digest alone, its version is not known before the render: the
   * revision stands (Flux reads the chart first and writes the pinned version).
   *
   * @throws ReleaseFailure ChartMutateError when the revision's digest is not one
   */
  public String attemptedRevision() {
    if (!oci) {
      return revision;
    }
    ChartVersionPin pin = versionPin();
    return HelmVersion.parse(pin.tag()).map(v -> v.withBuild(pin.build())).orElse(revision);
  }

  /**
   * The digest the status records an attempt with ({@code lastAttemptedRevisionDigest}): an OCI
   * chart's artifact digest as its revision names it, as Flux writes it; a HelmChart's stored
   * artifact's digest, which Flux does not write but a waiting release is resumed by.
   */
  public String attemptedDigest() {
    return oci ? ociDigest() : digest;
  }

  /** The digest of the OCI artifact (its manifest's) the revision names; null for a HelmChart. */
  public String ociDigest() {
    return oci ? revision.substring(revision.indexOf('@') + 1) : null;
  }

  /**
   * What the render does to the chart's version: for an OCI chart, the tag it was pulled by (with
   * {@code _} read as {@code +}: an OCI tag cannot hold a {@code +}, so {@code helm push} writes
   * build metadata with {@code _}) and its digest's first 12 hex digits; nothing for a HelmChart.
   *
   * @throws ReleaseFailure ChartMutateError when the revision's digest is not one
   */
  public ChartVersionPin versionPin() {
    if (!oci) {
      return ChartVersionPin.NONE;
    }
    int at = revision.indexOf('@');
    String tag = at < 0 ? "" : revision.substring(0, at).replace('_', '+');
    String named = ociDigest();
    int colon = named.indexOf(':');
    String hex = named.substring(colon + 1);
    if (colon < 0 || hex.length() < BUILD_LENGTH) {
      throw ReleaseFailure.failed(
          ReleaseReason.CHART_MUTATE_ERROR,
          source + ": invalid artifact revision: its digest is not <algorithm>:<hex>");
    }
    return new ChartVersionPin(tag, hex.substring(0, BUILD_LENGTH));
  }
}
