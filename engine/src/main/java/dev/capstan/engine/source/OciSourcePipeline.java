package dev.capstan.engine.source;

import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositorySpec;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.engine.pipeline.FetchSlots;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.engine.status.StatusWriter;
import dev.capstan.source.core.status.SourceStatus;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.oci.OciFetchRequest;
import dev.capstan.source.oci.OciSource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/**
 * One reconcile of an OCIRepository: pull the artifact into the store, write the status. Knows
 * nothing of the controller framework that calls it.
 */
public final class OciSourcePipeline {
  private final KubernetesClient client;
  private final OciSource source;
  private final StatusWriter statuses;
  private final Clock clock;
  private final SourceFetch fetches;

  public OciSourcePipeline(
      KubernetesClient client,
      OciSource source,
      StatusWriter statuses,
      Clock clock,
      PipelineObserver observer,
      FetchSlots slots) {
    this.client = client;
    this.source = source;
    this.statuses = statuses;
    this.clock = clock;
    this.fetches = new SourceFetch(clock, observer, slots);
  }

  /** The artifact store's key of an OCIRepository: apart from any GitRepository's. */
  public static String key(OCIRepository repo) {
    return "ocirepository/"
        + repo.getMetadata().getNamespace()
        + "/"
        + repo.getMetadata().getName();
  }

  public Outcome reconcile(OCIRepository repo) {
    OCIRepositorySpec spec = repo.getSpec();
    return fetches.observed(
        "OCIRepository",
        repo,
        spec == null || spec.suspended(),
        () ->
            fetches.reconcile(
                "OCIRepository",
                repo,
                () -> SourceTimings.of(spec.interval(), spec.timeout()),
                timings -> fetch(repo, timings),
                () -> source.lastArtifact(key(repo)),
                result -> writeStatus(repo, result)));
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
    OCIRepositoryStatus previous = repo.getStatus();
    var before =
        previous == null
            ? SourceStatus.empty()
            : ApiSourceStatuses.fromApi(
                previous.observedGeneration(), previous.conditions(), previous.artifact());
    var next = SourceStatuses.next(before, SourceFetch.generation(repo), result, clock.instant());
    OCIRepositoryStatus status =
        ApiSourceStatuses.toApi(
            next,
            SourceFetch.handledRequestedAt(
                repo, previous == null ? null : previous.lastHandledReconcileAt()),
            repo.getSpec());
    statuses.write(repo, status);
  }
}
