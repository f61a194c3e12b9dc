package dev.capstan.cli.migrate;

import java.util.Locale;
import java.util.Optional;

/**
 * The Flux kinds a migration reads, in the order it migrates them: sources before the charts, and
 * both before the Kustomizations and HelmReleases that use them.
 */
enum FluxKind {
  GIT_REPOSITORY("GitRepository", Group.SOURCE),
  OCI_REPOSITORY("OCIRepository", Group.SOURCE),
  BUCKET("Bucket", Group.SOURCE),
  HELM_REPOSITORY("HelmRepository", Group.SOURCE),
  EXTERNAL_ARTIFACT("ExternalArtifact", Group.SOURCE),
  HELM_CHART("HelmChart", Group.SOURCE),
  KUSTOMIZATION("Kustomization", Group.KUSTOMIZE),
  HELM_RELEASE("HelmRelease", Group.HELM);

  /** A Flux API group, its version, and the Capstan group (and version) its kinds move to. */
  enum Group {
    SOURCE("source.toolkit.fluxcd.io", "v1", "source.capstan.dev", "v1"),
    KUSTOMIZE("kustomize.toolkit.fluxcd.io", "v1", "kustomize.capstan.dev", "v1"),
    HELM("helm.toolkit.fluxcd.io", "v2", "helm.capstan.dev", "v2");

    final String flux;
    final String version;
    final String capstan;
    final String capstanVersion;

    Group(String flux, String version, String capstan, String capstanVersion) {
      this.flux = flux;
      this.version = version;
      this.capstan = capstan;
      this.capstanVersion = capstanVersion;
    }
  }

  final String kind;
  final Group group;

  FluxKind(String kind, Group group) {
    this.kind = kind;
    this.group = group;
  }

  /** The resource's plural name, the same in both groups. */
  String plural() {
    return kind.toLowerCase(Locale.ROOT).replaceAll("y$", "ie") + "s";
  }

  String fluxApiVersion() {
    return group.flux + "/" + group.version;
  }

  /** The twin's apiVersion. */
  String capstanApiVersion() {
    return group.capstan + "/" + group.capstanVersion;
  }

  /** The kind of this name. */
  static Optional<FluxKind> named(String kind) {
    for (FluxKind candidate : values()) {
      if (candidate.kind.equals(kind)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * The Capstan apiVersion for a Flux one ({@code source.toolkit.fluxcd.io/v1beta2} too, {@code
   * helm.toolkit.fluxcd.io/v2} becoming {@code helm.capstan.dev/v2}); any other is returned as it
   * is.
   */
  static String toCapstan(String apiVersion) {
    return swapGroup(apiVersion, true);
  }

  /** The Flux apiVersion for a Capstan one; any other is returned as it is. */
  static String toFlux(String apiVersion) {
    return swapGroup(apiVersion, false);
  }

  private static String swapGroup(String apiVersion, boolean toCapstan) {
    if (apiVersion == null) {
      return null;
    }
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    for (Group candidate : Group.values()) {
      if (toCapstan && candidate.flux.equals(group)) {
        return candidate.capstan + "/" + candidate.capstanVersion;
      }
      if (!toCapstan && candidate.capstan.equals(group)) {
        return candidate.flux + "/" + candidate.version;
      }
    }
    return apiVersion;
  }
}
