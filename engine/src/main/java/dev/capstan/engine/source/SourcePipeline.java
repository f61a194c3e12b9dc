package dev.capstan.engine.source;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositorySpec;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.engine.pipeline.FetchSlots;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.engine.status.StatusWriter;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.git.FetchRequest;
import dev.capstan.source.git.GitSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/**
 * One reconcile of a GitRepository: fetch the ref into the artifact store, write the status. Knows
 * nothing of the controller framework that calls it.
 */
public final class SourcePipeline {
  private final KubernetesClient client;
  private final GitSource source;
  private final StatusWriter statuses;
  private final Clock clock;
  private final SourceInputs includes;
  private final SourceFetch fetches;

  public SourcePipeline(
      KubernetesClient client,
      GitSource source,
      StatusWriter statuses,
      Clock clock,
      PipelineObserver observer,
      FetchSlots slots) {
    this.client = client;
    this.source = source;
    this.statuses = statuses;
    this.clock = clock;
    this.includes = new SourceInputs(client);
    this.fetches = new SourceFetch(clock, observer, slots);
  }

  public Outcome reconcile(GitRepository repo) {
    GitRepositorySpec spec = repo.getSpec();
    return fetches.observed(
        "GitRepository",
        repo,
        spec == null || spec.suspended(),
        () ->
            fetches.reconcile(
                "GitRepository",
                repo,
                () -> SourceTimings.of(spec),
                timings -> fetch(repo, timings),
                () -> source.lastArtifact(key(repo)),
                result -> writeStatus(repo, result)));
  }

  private void writeStatus(GitRepository repo, FetchResult result) {
    var next =
        SourceStatuses.next(
            ApiSourceStatuses.fromApi(repo.getStatus()),
            SourceFetch.generation(repo),
            result,
            clock.instant());
    GitRepositoryStatus status =
        ApiSourceStatuses.toApi(
            next,
            SourceFetch.handledRequestedAt(
                repo, repo.getStatus() == null ? null : repo.getStatus().lastHandledReconcileAt()));
    statuses.write(repo, status);
  }

  private static String key(GitRepository repo) {
    return repo.getMetadata().getNamespace() + "/" + repo.getMetadata().getName();
  }

  private FetchResult fetch(GitRepository repo, SourceTimings timings) {
    FetchRequest request;
    try {
      request = SourceRequests.of(client, repo, key(repo), timings.timeout(), includes::resolve);
    } catch (SourceInputs.Unavailable e) {
      return new FetchResult.Failed(e.reason(), e.getMessage(), source.lastArtifact(key(repo)));
    }
    return source.fetch(request);
  }
}
