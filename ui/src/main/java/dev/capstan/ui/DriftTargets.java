package dev.capstan.ui;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.SourceReference;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.kustomization.ReferenceRules;
import java.util.Optional;

/**
 * Which revision of which source a Kustomization's drift is computed for: the revision it last
 * applied, or, before it applied any, its GitRepository's current artifact. What the engine would
 * refuse to fetch ({@link ReferenceRules}) is refused here too, before anything is read for it.
 */
final class DriftTargets {
  static final String LAST_APPLIED =
      "the Kustomization's last applied revision (status.lastAppliedRevision)";
  static final String ARTIFACT =
      "the GitRepository's current artifact (nothing has been applied yet)";

  /** Where the Kustomizations and GitRepositories of the user's view are read. */
  interface Lookup {
    Optional<Kustomization> kustomization(String namespace, String name);

    Optional<GitRepository> gitRepository(String namespace, String name);
  }

  private final Lookup catalog;
  private final ReferenceRules rules;

  DriftTargets(Lookup catalog, ReferenceRules rules) {
    this.catalog = catalog;
    this.rules = rules;
  }

  /**
   * Why there is nothing to compare.
   *
   * @param state {@link Drift.State#UNAVAILABLE} or {@link Drift.State#REFUSED}
   */
  record Obstacle(Drift.State state, String message) {
    static Obstacle unavailable(String message) {
      return new Obstacle(Drift.State.UNAVAILABLE, message);
    }

    static Obstacle refused(String engineRefusal) {
      return new Obstacle(
          Drift.State.REFUSED, "refused, as the engine would refuse it: " + engineRefusal);
    }
  }

  /**
   * @param revision empty when there is none to compare
   * @param obstacle why there is nothing to compare; empty when there is
   */
  record Target(
      Kustomization kustomization,
      Optional<GitRepository> repository,
      String revision,
      String revisionFrom,
      Optional<Obstacle> obstacle) {
    private static Target blocked(
        Kustomization ks, Optional<GitRepository> repo, Obstacle obstacle) {
      return new Target(ks, repo, "", "", Optional.of(obstacle));
    }
  }

  /** Empty when the Kustomization is not in the user's view. */
  Optional<Target> target(String namespace, String name) {
    return catalog.kustomization(namespace, name).map(this::target);
  }

  private Target target(Kustomization ks) {
    SourceReference ref = ks.getSpec() == null ? null : ks.getSpec().sourceRef();
    if (ref == null
        || ref.name() == null
        || ref.kind() != SourceReference.SourceKind.GitRepository) {
      return Target.blocked(
          ks,
          Optional.empty(),
          Obstacle.unavailable("the Kustomization's source is not a GitRepository"));
    }
    // The references first, before the GitRepository is looked at: under the lockdown another
    // namespace's is none of this Kustomization's business.
    Optional<String> refused = rules.refusal(ks, Optional.empty());
    if (refused.isPresent()) {
      return Target.blocked(ks, Optional.empty(), Obstacle.refused(refused.get()));
    }
    String ns =
        ref.namespace() == null || ref.namespace().isEmpty()
            ? ks.getMetadata().getNamespace()
            : ref.namespace();
    Optional<GitRepository> repo = catalog.gitRepository(ns, ref.name());
    if (repo.isEmpty()) {
      return Target.blocked(
          ks,
          repo,
          Obstacle.unavailable(
              "GitRepository "
                  + ns
                  + "/"
                  + ref.name()
                  + " is not in your view: it does not exist or you cannot list it"));
    }
    refused = rules.refusal(ks, repo);
    if (refused.isPresent()) {
      return Target.blocked(ks, repo, Obstacle.refused(refused.get()));
    }
    return withRevision(ks, repo);
  }

  private static Target withRevision(Kustomization ks, Optional<GitRepository> repo) {
    String applied = ks.getStatus() == null ? null : ks.getStatus().lastAppliedRevision();
    if (applied != null && !applied.isBlank()) {
      return new Target(ks, repo, applied, LAST_APPLIED, Optional.empty());
    }
    var artifact = repo.get().getStatus() == null ? null : repo.get().getStatus().artifact();
    if (artifact != null && artifact.revision() != null && !artifact.revision().isBlank()) {
      return new Target(ks, repo, artifact.revision(), ARTIFACT, Optional.empty());
    }
    return Target.blocked(
        ks,
        repo,
        Obstacle.unavailable(
            "no revision to compare: nothing has been applied and the GitRepository"
                + " has no artifact yet"));
  }
}
