package dev.capstan.engine.pipeline;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositorySpec;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.engine.NamespacedName;
import dev.capstan.source.core.FetchResult;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.git.FetchRequest;
import dev.capstan.source.git.GitSource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * One reconcile of a GitRepository: fetch the ref into the artifact store, write the status. Knows
 * nothing of the controller framework that calls it.
 */
public final class SourcePipeline {
  private final KubernetesClient client;
  private final GitSource source;
  private final StatusWriter statuses;
  private final Clock clock;
  private final PipelineObserver observer;
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
    this.observer = observer;
    this.includes = new SourceInputs(client);
    this.fetches = new SourceFetch(clock, observer, slots);
  }

  public Outcome reconcile(GitRepository repo) {
    Outcome outcome = reconcileOnce(repo);
    observer.reconciled("GitRepository", NamespacedName.of(repo), outcome.kind());
    return outcome;
  }

  private Outcome reconcileOnce(GitRepository repo) {
    GitRepositorySpec spec = repo.getSpec();
    if (spec == null || spec.suspended()) {
      return Outcome.suspended();
    }
    return fetches.reconcile(
        "GitRepository",
        repo,
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

  static Map<String, byte[]> decode(Secret secret) {
    Map<String, byte[]> data = new HashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> data.put(k, Base64.getDecoder().decode(v)));
    }
    if (secret.getStringData() != null) {
      secret.getStringData().forEach((k, v) -> data.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    return data;
  }
}
