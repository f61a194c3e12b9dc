package dev.capstan.engine.source;

import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.HelmRepositorySpec;
import dev.capstan.api.source.HelmRepositoryStatus;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceKind;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.status.SourceStatus;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.helm.HelmIndexSource;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a HelmRepository adds to a source's reconcile ({@link SourceFetch}): its index downloaded
 * into the store, its status written. A repository of type oci stores nothing: as Flux's, it only
 * records where its charts are, checked to be an oci:// URL, and is not reconciled at an interval.
 * Knows nothing of the controller framework that calls it.
 */
public final class HelmRepositoryPipeline implements SourceKind<HelmRepository> {
  /** Flux's message for a HelmRepository of type oci that is usable. */
  static final String OCI_READY = "Helm repository is ready";

  /** Flux's interval when a HelmRepository sets none. */
  static final String DEFAULT_INTERVAL = "1m";

  private static final Logger LOG = LoggerFactory.getLogger(HelmRepositoryPipeline.class);

  private final SourcePipelineParts parts;
  private final HelmIndexSource source;

  public HelmRepositoryPipeline(SourcePipelineParts parts, HelmIndexSource source) {
    this.parts = parts;
    this.source = source;
  }

  /** The artifact store's key of a HelmRepository: apart from every other kind's. */
  public static String key(HelmRepository repo) {
    return "helmrepository/"
        + repo.getMetadata().getNamespace()
        + "/"
        + repo.getMetadata().getName();
  }

  /** Whether {@code repo} is of type oci, and so reconciled by {@link #recordOci}. */
  public static boolean oci(HelmRepository repo) {
    return repo.getSpec() != null && repo.getSpec().oci();
  }

  @Override
  public String kind() {
    return "HelmRepository";
  }

  @Override
  public SourceTimings timings(HelmRepository repo) {
    HelmRepositorySpec spec = repo.getSpec();
    return SourceTimings.of(
        spec.interval() == null ? DEFAULT_INTERVAL : spec.interval(), spec.timeout());
  }

  @Override
  public Optional<StoredArtifact> lastArtifact(HelmRepository repo) {
    return source.lastArtifact(key(repo));
  }

  @Override
  public FetchResult fetch(HelmRepository repo, SourceTimings timings) {
    return SourcePipelineParts.fetch(
        () -> HelmRequests.of(parts.client(), repo, key(repo), timings.timeout()),
        source::fetch,
        () -> lastArtifact(repo));
  }

  @Override
  public void writeStatus(HelmRepository repo, FetchResult result) {
    SourceStatus next =
        SourceStatuses.next(
            previous(repo), SourceFetch.generation(repo), result, parts.clock().instant());
    write(repo, next);
  }

  /**
   * A HelmRepository of type oci: its URL and provider checked, Ready written, nothing stored (an
   * index artifact from before a change of type is forgotten). Reconciled again only when it
   * changes, as Flux leaves such a repository alone.
   */
  public Outcome recordOci(HelmRepository repo) {
    forget(repo);
    HelmRepositorySpec spec = repo.getSpec();
    long generation = SourceFetch.generation(repo);
    SourceStatus next;
    Outcome outcome;
    try {
      HelmRequests.refuseUnsupported(spec);
      if (!spec.url().startsWith("oci://")) {
        throw new SourceInputs.Unavailable(
            FailureReason.INVALID_URL, "spec.url must be an oci:// URL when spec.type is oci");
      }
      next =
          SourceStatuses.recorded(previous(repo), generation, OCI_READY, parts.clock().instant());
      outcome = new Outcome(Outcome.Kind.SUCCEEDED, Optional.empty());
    } catch (SourceInputs.Unavailable e) {
      next =
          SourceStatuses.next(
              previous(repo),
              generation,
              new FetchResult.Failed(e.reason(), e.getMessage(), Optional.empty()),
              parts.clock().instant());
      outcome = Outcome.terminal();
    }
    write(repo, next);
    return outcome;
  }

  /** A HelmRepository was deleted: its stored index goes with it. */
  @Override
  public void deleted(HelmRepository repo) {
    forget(repo);
    parts.statuses().forget(repo);
  }

  private void forget(HelmRepository repo) {
    try {
      source.forget(key(repo));
    } catch (IOException e) {
      // Left for the store's next collection; nothing reads a forgotten key's state.
      LOG.warn("could not forget the stored index of {}: {}", key(repo), e.toString());
    }
  }

  private static SourceStatus previous(HelmRepository repo) {
    HelmRepositoryStatus status = repo.getStatus();
    return status == null
        ? SourceStatus.empty()
        : ApiSourceStatuses.fromApi(
            status.observedGeneration(), status.conditions(), status.artifact());
  }

  private void write(HelmRepository repo, SourceStatus next) {
    HelmRepositoryStatus previous = repo.getStatus();
    parts
        .statuses()
        .write(
            repo,
            ApiSourceStatuses.helmStatus(
                next,
                SourceFetch.handledRequestedAt(
                    repo, previous == null ? null : previous.lastHandledReconcileAt())));
  }
}
