package dev.capstan.source.helm;

import dev.capstan.source.core.store.StoredArtifact;
import java.util.Optional;

/**
 * Where a chart directory's dependencies on a repository are resolved: as Flux resolves them, by a
 * HelmRepository of the HelmChart's namespace whose URL is the dependency's, with that repository's
 * stored index, credentials and TLS.
 */
@FunctionalInterface
public interface DependencyRepositories {
  /** None: a dependency that is not vendored or {@code file://} is refused by name. */
  DependencyRepositories NONE = url -> Optional.empty();

  /**
   * A repository with its download request and stored index.
   *
   * @param request the repository's URL, credentials, TLS and timeout
   * @param index its stored index
   */
  record Repository(HelmIndexRequest request, StoredArtifact index) {}

  /** The repository whose URL is {@code url} (a trailing slash aside); empty when none. */
  Optional<Repository> find(String url);
}
