package dev.capstan.api.helm;

import dev.capstan.api.common.RecordResource;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Helm chart installed into the cluster as a Helm release, upgraded when its chart or values
 * change, with its release records kept in Helm's own storage format.
 */
@Group(HelmRelease.GROUP)
@Version(HelmRelease.VERSION)
@Kind("HelmRelease")
@Plural("helmreleases")
@Singular("helmrelease")
@ShortNames("hr")
@Categories({"all", "fluxcd", "fluxcd-appliers"})
@AdditionalPrinterColumn(
    name = "Age",
    type = AdditionalPrinterColumn.Type.DATE,
    jsonPath = ".metadata.creationTimestamp")
@AdditionalPrinterColumn(
    name = "Ready",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status")
@AdditionalPrinterColumn(
    name = "Healthy",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Healthy\")].status")
@AdditionalPrinterColumn(
    name = "Status",
    type = AdditionalPrinterColumn.Type.STRING,
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].message")
public class HelmRelease extends RecordResource<HelmReleaseSpec, HelmReleaseStatus> {
  public static final String GROUP = "helm.capstan.dev";
  public static final String VERSION = "v2";

  /** Helm's longest release name. */
  public static final int MAX_RELEASE_NAME = 53;

  /**
   * The Helm release's name: {@code spec.releaseName}, else {@code [targetNamespace-]name}. A
   * composed name longer than Helm allows is cut to 40 characters and suffixed with 12 hex digits
   * of its SHA-256, as Flux shortens it, so that two long names stay apart.
   */
  public String releaseName() {
    HelmReleaseSpec spec = getSpec();
    if (spec != null && spec.releaseName() != null && !spec.releaseName().isEmpty()) {
      return spec.releaseName();
    }
    String name = getMetadata().getName();
    String composed =
        spec != null && spec.targetNamespace() != null && !spec.targetNamespace().isEmpty()
            ? spec.targetNamespace() + "-" + name
            : name;
    return composed.length() <= MAX_RELEASE_NAME ? composed : shortened(composed);
  }

  /** The namespace the chart's objects go to: {@code spec.targetNamespace}, else this one's. */
  public String releaseNamespace() {
    HelmReleaseSpec spec = getSpec();
    return spec != null && spec.targetNamespace() != null && !spec.targetNamespace().isEmpty()
        ? spec.targetNamespace()
        : getMetadata().getNamespace();
  }

  /** The namespace of the release records: {@code spec.storageNamespace}, else this one's. */
  public String storageNamespace() {
    HelmReleaseSpec spec = getSpec();
    return spec != null && spec.storageNamespace() != null && !spec.storageNamespace().isEmpty()
        ? spec.storageNamespace()
        : getMetadata().getNamespace();
  }

  /** The name of the HelmChart made from {@code spec.chart}: {@code <namespace>-<name>}. */
  public String helmChartName() {
    return getMetadata().getNamespace() + "-" + getMetadata().getName();
  }

  private static String shortened(String composed) {
    try {
      byte[] sum =
          MessageDigest.getInstance("SHA-256").digest(composed.getBytes(StandardCharsets.UTF_8));
      return composed.substring(0, 40) + "-" + HexFormat.of().formatHex(sum).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
