package dev.capstan.engine.source;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceKind;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.GitSource;
import java.util.Optional;

/**
 * What a GitRepository adds to a source's reconcile ({@link SourceFetch}): fetch the ref into the
 * artifact store, write the status. Knows nothing of the controller framework that calls it.
 */
public final class SourcePipeline implements SourceKind<GitRepository> {
  private final SourcePipelineParts parts;
  private final GitSource source;
  private final SourceInputs includes;

  public SourcePipeline(SourcePipelineParts parts, GitSource source) {
    this.parts = parts;
    this.source = source;
    this.includes = new SourceInputs(parts.client());
  }

  @Override
  public String kind() {
    return "GitRepository";
  }

  @Override
  public SourceTimings timings(GitRepository repo) {
    return SourceTimings.of(repo.getSpec());
  }

  @Override
  public Optional<StoredArtifact> lastArtifact(GitRepository repo) {
    return source.lastArtifact(key(repo));
  }

  @Override
  public void writeStatus(GitRepository repo, FetchResult result) {
    var next =
        SourceStatuses.next(
            ApiSourceStatuses.fromApi(repo.getStatus()),
            SourceFetch.generation(repo),
            result,
            parts.clock().instant());
    GitRepositoryStatus status =
        ApiSourceStatuses.toApi(
            next,
            SourceFetch.handledRequestedAt(
                repo, repo.getStatus() == null ? null : repo.getStatus().lastHandledReconcileAt()));
    parts.statuses().write(repo, status);
  }

  /** The store's key of a GitRepository's artifact (its state names the tree it stored). */
  static String key(GitRepository repo) {
    return repo.getMetadata().getNamespace() + "/" + repo.getMetadata().getName();
  }

  @Override
  public FetchResult fetch(GitRepository repo, SourceTimings timings) {
    return SourcePipelineParts.fetch(
        () ->
            SourceRequests.of(
                parts.client(), repo, key(repo), timings.timeout(), includes::resolve),
        source::fetch,
        () -> lastArtifact(repo));
  }
}
