package dev.capstan.engine.source;

import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositorySpec;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceKind;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.source.core.status.SourceStatus;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.oci.OciSource;
import java.util.Optional;

/**
 * What an OCIRepository adds to a source's reconcile ({@link SourceFetch}): pull the artifact into
 * the store, write the status. Knows nothing of the controller framework that calls it.
 */
public final class OciSourcePipeline implements SourceKind<OCIRepository> {
  private final SourcePipelineParts parts;
  private final OciSource source;

  public OciSourcePipeline(SourcePipelineParts parts, OciSource source) {
    this.parts = parts;
    this.source = source;
  }

  /** The artifact store's key of an OCIRepository: apart from any GitRepository's. */
  public static String key(OCIRepository repo) {
    return "ocirepository/"
        + repo.getMetadata().getNamespace()
        + "/"
        + repo.getMetadata().getName();
  }

  @Override
  public String kind() {
    return "OCIRepository";
  }

  @Override
  public SourceTimings timings(OCIRepository repo) {
    OCIRepositorySpec spec = repo.getSpec();
    return SourceTimings.of(spec.interval(), spec.timeout());
  }

  @Override
  public Optional<StoredArtifact> lastArtifact(OCIRepository repo) {
    return source.lastArtifact(key(repo));
  }

  @Override
  public FetchResult fetch(OCIRepository repo, SourceTimings timings) {
    return SourcePipelineParts.fetch(
        () -> OciRequests.of(parts.client(), repo, key(repo), timings.timeout()),
        source::fetch,
        () -> lastArtifact(repo));
  }

  @Override
  public void writeStatus(OCIRepository repo, FetchResult result) {
    OCIRepositoryStatus previous = repo.getStatus();
    var before =
        previous == null
            ? SourceStatus.empty()
            : ApiSourceStatuses.fromApi(
                previous.observedGeneration(), previous.conditions(), previous.artifact());
    var next =
        SourceStatuses.next(before, SourceFetch.generation(repo), result, parts.clock().instant());
    OCIRepositoryStatus status =
        ApiSourceStatuses.toApi(
            next,
            SourceFetch.handledRequestedAt(
                repo, previous == null ? null : previous.lastHandledReconcileAt()),
            repo.getSpec());
    parts.statuses().write(repo, status);
  }
}
