package dev.capstan.engine.pipeline;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositorySpec;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.engine.NamespacedName;
import dev.capstan.source.FailureReason;
import dev.capstan.source.FetchRequest;
import dev.capstan.source.FetchResult;
import dev.capstan.source.GitSource;
import dev.capstan.source.status.GitRepositoryStatuses;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

  public SourcePipeline(
      KubernetesClient client,
      GitSource source,
      StatusWriter statuses,
      Clock clock,
      PipelineObserver observer) {
    this.client = client;
    this.source = source;
    this.statuses = statuses;
    this.clock = clock;
    this.observer = observer;
    this.includes = new SourceInputs(client);
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
    SourceTimings timings;
    try {
      timings = SourceTimings.of(spec);
    } catch (IllegalArgumentException e) {
      // Checked before any fetch: an interval of 0s would otherwise fetch in a loop.
      writeStatus(
          repo,
          new FetchResult.Failed(
              FailureReason.INVALID_SPEC, e.getMessage(), source.lastArtifact(key(repo))));
      return Outcome.terminal();
    }
    Instant fetchStarted = clock.instant();
    // See StackGuard: running out of stack is an Error no caller handles. INVALID_SPEC needs a
    // change of the spec or the content, so the outcome is terminal (Stalled), never retried.
    FetchResult result =
        StackGuard.orElse(
            () -> fetch(repo, timings),
            () ->
                new FetchResult.Failed(
                    FailureReason.INVALID_SPEC,
                    "the GitRepository or its content nests too deeply to be processed",
                    source.lastArtifact(key(repo))));
    observer.fetched(
        NamespacedName.of(repo),
        !(result instanceof FetchResult.Failed),
        Duration.between(fetchStarted, clock.instant()));
    writeStatus(repo, result);
    if (result instanceof FetchResult.Failed failed) {
      return failed.reason().needsSpecChange()
          ? Outcome.terminal()
          : Outcome.retry(timings.interval());
    }
    return Outcome.succeeded(timings.interval());
  }

  private void writeStatus(GitRepository repo, FetchResult result) {
    long generation =
        repo.getMetadata().getGeneration() == null ? 0 : repo.getMetadata().getGeneration();
    var next =
        GitRepositoryStatuses.next(
            SourceStatuses.fromApi(repo.getStatus()), generation, result, clock.instant());
    String requestedAt =
        repo.getMetadata().getAnnotations() == null
            ? null
            : repo.getMetadata().getAnnotations().get(KustomizationPipeline.REQUESTED_AT);
    GitRepositoryStatus status =
        SourceStatuses.toApi(
            next,
            requestedAt != null
                ? requestedAt
                : repo.getStatus() == null ? null : repo.getStatus().lastHandledReconcileAt());
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
