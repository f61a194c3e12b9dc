package dev.capstan.engine.pipeline;

import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositorySpec;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.engine.NamespacedName;
import dev.capstan.source.FailureReason;
import dev.capstan.source.FetchResult;
import dev.capstan.source.oci.OciFetchRequest;
import dev.capstan.source.oci.OciSource;
import dev.capstan.source.status.GitRepositoryStatuses;
import dev.capstan.source.status.SourceStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * One reconcile of an OCIRepository: pull the artifact into the store, write the status. Knows
 * nothing of the controller framework that calls it.
 */
public final class OciSourcePipeline {
  private final KubernetesClient client;
  private final OciSource source;
  private final StatusWriter statuses;
  private final Clock clock;
  private final PipelineObserver observer;

  public OciSourcePipeline(
      KubernetesClient client,
      OciSource source,
      StatusWriter statuses,
      Clock clock,
      PipelineObserver observer) {
    this.client = client;
    this.source = source;
    this.statuses = statuses;
    this.clock = clock;
    this.observer = observer;
  }

  /** The artifact store's key of an OCIRepository: apart from any GitRepository's. */
  public static String key(OCIRepository repo) {
    return "ocirepository/"
        + repo.getMetadata().getNamespace()
        + "/"
        + repo.getMetadata().getName();
  }

  public Outcome reconcile(OCIRepository repo) {
    Outcome outcome = reconcileOnce(repo);
    observer.reconciled("OCIRepository", NamespacedName.of(repo), outcome.kind());
    return outcome;
  }

  private Outcome reconcileOnce(OCIRepository repo) {
    OCIRepositorySpec spec = repo.getSpec();
    if (spec == null || spec.suspended()) {
      return Outcome.suspended();
    }
    SourceTimings timings;
    try {
      timings = SourceTimings.of(spec.interval(), spec.timeout());
    } catch (IllegalArgumentException e) {
      writeStatus(
          repo,
          new FetchResult.Failed(
              FailureReason.INVALID_SPEC, e.getMessage(), source.lastArtifact(key(repo))));
      return Outcome.terminal();
    }
    Instant started = clock.instant();
    FetchResult result =
        StackGuard.orElse(
            () -> fetch(repo, timings),
            () ->
                new FetchResult.Failed(
                    FailureReason.INVALID_SPEC,
                    "the OCIRepository or its content nests too deeply to be processed",
                    source.lastArtifact(key(repo))));
    observer.fetched(
        NamespacedName.of(repo),
        !(result instanceof FetchResult.Failed),
        Duration.between(started, clock.instant()));
    writeStatus(repo, result);
    if (result instanceof FetchResult.Failed failed) {
      return failed.reason().needsSpecChange()
          ? Outcome.terminal()
          : Outcome.retry(timings.interval());
    }
    return Outcome.succeeded(timings.interval());
  }

  private FetchResult fetch(OCIRepository repo, SourceTimings timings) {
    OciFetchRequest request;
    try {
      request = OciRequests.of(client, repo, key(repo), timings.timeout());
    } catch (SourceInputs.Unavailable e) {
      return new FetchResult.Failed(e.reason(), e.getMessage(), source.lastArtifact(key(repo)));
    }
    return source.fetch(request);
  }

  private void writeStatus(OCIRepository repo, FetchResult result) {
    long generation =
        repo.getMetadata().getGeneration() == null ? 0 : repo.getMetadata().getGeneration();
    OCIRepositoryStatus previous = repo.getStatus();
    var before =
        previous == null
            ? SourceStatus.empty()
            : SourceStatuses.fromApi(
                previous.observedGeneration(), previous.conditions(), previous.artifact());
    var next = GitRepositoryStatuses.next(before, generation, result, clock.instant());
    String requestedAt =
        repo.getMetadata().getAnnotations() == null
            ? null
            : repo.getMetadata().getAnnotations().get(KustomizationPipeline.REQUESTED_AT);
    OCIRepositoryStatus status =
        SourceStatuses.toApi(
            next,
            requestedAt != null
                ? requestedAt
                : previous == null ? null : previous.lastHandledReconcileAt(),
            repo.getSpec());
    statuses.write(repo, status);
  }
}
