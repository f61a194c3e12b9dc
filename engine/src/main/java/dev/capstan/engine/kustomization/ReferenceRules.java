package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.SourceReference;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DependencyReferences;
import dev.capstan.source.git.GitSourceOptions;
import dev.capstan.source.git.transport.UrlScheme;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a tenant's Kustomization and GitRepository may refer to, and so what the engine refuses
 * before it reads anything for them: a GitRepository URL of another form than {@code http://},
 * {@code https://} or {@code ssh://} (never a path on the machine that fetches), and, under {@code
 * --no-cross-namespace-refs}, a sourceRef or dependsOn to another namespace. The engine's stages,
 * its order of deletion and the web view (drift, the Reconcile action) all ask here, so that
 * neither the engine nor the view reads, waits for or patches what the rules refuse.
 *
 * @param noCrossNamespaceRefs whether a reference to another namespace is refused
 */
public record ReferenceRules(boolean noCrossNamespaceRefs) {
  /** The URL forms a GitRepository may name, as Flux's GitRepository admits them. */
  private static final Set<UrlScheme> GIT_REPOSITORY_URLS = UrlScheme.gitRepository();

  private static final String CROSS_NAMESPACE = "cross-namespace references are not allowed: ";

  /** A store for GitRepositories: it fetches only the URL forms a GitRepository may name. */
  public static GitSourceOptions gitRepositoryStore(Path root, Clock clock) {
    return GitSourceOptions.at(root).withClock(clock).withAllowedSchemes(GIT_REPOSITORY_URLS);
  }

  /** Why a GitRepository may not name {@code url}; empty when it may. */
  public static Optional<String> urlRefusal(String url) {
    return UrlScheme.refusal(url, GIT_REPOSITORY_URLS);
  }

  /**
   * Why a Kustomization in {@code namespace} may not take its source from {@code source}, a {@code
   * kind} (GitRepository, OCIRepository, ExternalArtifact).
   */
  public Optional<String> sourceRefRefusal(String namespace, String kind, NamespacedName source) {
    if (!noCrossNamespaceRefs || source.namespace().equals(namespace)) {
      return Optional.empty();
    }
    return Optional.of(
        CROSS_NAMESPACE
            + "sourceRef "
            + kind
            + " '"
            + source
            + "' is not in namespace '"
            + namespace
            + "'");
  }

  /** Why {@code self} may not depend on one of {@code refs}: the first one refused. */
  public Optional<String> dependsOnRefusal(NamespacedName self, List<DependencyReference> refs) {
    if (!noCrossNamespaceRefs || refs == null) {
      return Optional.empty();
    }
    for (DependencyReference ref : refs) {
      NamespacedName key = NamespacedName.resolve(ref.namespace(), ref.name(), self.namespace());
      if (!key.namespace().equals(self.namespace())) {
        String what =
            DependencyReferences.isKustomization(ref)
                ? "Kustomization"
                : ref.apiVersion() + " " + ref.kind();
        return Optional.of(
            CROSS_NAMESPACE
                + "dependsOn "
                + what
                + " '"
                + key
                + "' is not in namespace '"
                + self.namespace()
                + "'");
      }
    }
    return Optional.empty();
  }

  /**
   * The Kustomizations {@code ks} depends on as the engine honours its dependsOn: none when these
   * rules refuse it, since the engine never reconciles {@code ks} with it. Whatever orders
   * Kustomizations by their dependsOn (the reverse order of deletion) reads it here, so that a
   * Kustomization in another namespace cannot hold one of this namespace under the lockdown.
   */
  public List<NamespacedName> kustomizationsDependedOn(Kustomization ks) {
    if (ks.getSpec() == null
        || dependsOnRefusal(NamespacedName.of(ks), ks.getSpec().dependsOn()).isPresent()) {
      return List.of();
    }
    return DependencyReferences.kustomizations(ks);
  }

  /**
   * Why the engine would refuse to reconcile {@code ks} from its GitRepository, in the order its
   * stages ask: dependsOn (the gate), then sourceRef, then the GitRepository's URL (the fetch).
   *
   * @param repo the GitRepository of the sourceRef, when it is known
   */
  public Optional<String> refusal(Kustomization ks, Optional<GitRepository> repo) {
    NamespacedName self = NamespacedName.of(ks);
    if (ks.getSpec() == null) {
      return Optional.empty();
    }
    Optional<String> refused = dependsOnRefusal(self, ks.getSpec().dependsOn());
    SourceReference ref = ks.getSpec().sourceRef();
    if (refused.isEmpty() && ref != null && ref.name() != null) {
      refused =
          sourceRefRefusal(
              self.namespace(),
              ref.kind() == null ? "GitRepository" : ref.kind().name(),
              NamespacedName.resolve(ref.namespace(), ref.name(), self.namespace()));
    }
    if (refused.isEmpty() && repo.isPresent() && repo.get().getSpec() != null) {
      refused = urlRefusal(repo.get().getSpec().url());
    }
    return refused;
  }
}
