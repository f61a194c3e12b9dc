package dev.capstan.engine.source;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositorySpec;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.git.GitSource;

/**
 * One reconcile of a GitRepository: fetch the ref into the artifact store, write the status. Knows
 * nothing of the controller framework that calls it.
 */
public final class SourcePipeline {
  private final SourcePipelineParts parts;
  private final GitSource source;
  private final SourceInputs includes;

  public SourcePipeline(SourcePipelineParts parts, GitSource source) {
    this.parts = parts;
    this.source = source;
    this.includes = new SourceInputs(parts.client());
  }

  public Outcome reconcile(GitRepository repo) {
    GitRepositorySpec spec = repo.getSpec();
    return parts.reconcile(
        "GitRepository",
        repo,
        spec == null || spec.suspended(),
        () -> SourceTimings.of(spec),
        timings -> fetch(repo, timings),
        () -> source.lastArtifact(key(repo)),
        result -> writeStatus(repo, result));
  }

  private void writeStatus(GitRepository repo, FetchResult result) {
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

  private static String key(GitRepository repo) {
    return repo.getMetadata().getNamespace() + "/" + repo.getMetadata().getName();
  }

  private FetchResult fetch(GitRepository repo, SourceTimings timings) {
    return SourcePipelineParts.fetch(
        () ->
            SourceRequests.of(
                parts.client(), repo, key(repo), timings.timeout(), includes::resolve),
        source::fetch,
        () -> source.lastArtifact(key(repo)));
  }
}
