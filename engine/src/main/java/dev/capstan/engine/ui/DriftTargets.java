package dev.capstan.engine.ui;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.SourceReference;
import dev.capstan.api.source.GitRepository;
import java.util.Optional;

/**
 * Which revision of which source a Kustomization's drift is computed for: the revision it last
 * applied, or, before it applied any, its GitRepository's current artifact.
 */
final class DriftTargets {
  static final String LAST_APPLIED =
      "the Kustomization's last applied revision (status.lastAppliedRevision)";
  static final String ARTIFACT =
      "the GitRepository's current artifact (nothing has been applied yet)";

  private final Catalog catalog;

  DriftTargets(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * @param revision empty when there is none to compare
   * @param unavailable why there is nothing to compare; empty when there is
   */
  record Target(
      Kustomization kustomization,
      Optional<GitRepository> repository,
      String revision,
      String revisionFrom,
      String unavailable) {}

  /** Empty when the Kustomization is not in the user's view. */
  Optional<Target> target(String namespace, String name) {
    return catalog.kustomization(namespace, name).map(this::target);
  }

  private Target target(Kustomization ks) {
    SourceReference ref = ks.getSpec() == null ? null : ks.getSpec().sourceRef();
    if (ref == null
        || ref.name() == null
        || ref.kind() != SourceReference.SourceKind.GitRepository) {
      return new Target(
          ks, Optional.empty(), "", "", "the Kustomization's source is not a GitRepository");
    }
    String ns =
        ref.namespace() == null || ref.namespace().isEmpty()
            ? ks.getMetadata().getNamespace()
            : ref.namespace();
    Optional<GitRepository> repo = catalog.gitRepository(ns, ref.name());
    if (repo.isEmpty()) {
      return new Target(
          ks,
          repo,
          "",
          "",
          "GitRepository "
              + ns
              + "/"
              + ref.name()
              + " is not in your view: it does not exist or you cannot list it");
    }
    String applied = ks.getStatus() == null ? null : ks.getStatus().lastAppliedRevision();
    if (applied != null && !applied.isBlank()) {
      return new Target(ks, repo, applied, LAST_APPLIED, "");
    }
    var artifact = repo.get().getStatus() == null ? null : repo.get().getStatus().artifact();
    if (artifact != null && artifact.revision() != null && !artifact.revision().isBlank()) {
      return new Target(ks, repo, artifact.revision(), ARTIFACT, "");
    }
    return new Target(
        ks,
        repo,
        "",
        "",
        "no revision to compare: nothing has been applied and the GitRepository"
            + " has no artifact yet");
  }
}
