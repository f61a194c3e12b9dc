package dev.capstan.engine.source;

import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.helm.ChartLimits;
import dev.capstan.source.helm.HelmChartSource;
import dev.capstan.source.helm.HelmIndexSource;
import dev.capstan.source.helm.IndexLimits;
import dev.capstan.source.helm.OciChartSource;
import dev.capstan.source.oci.OciSource;
import dev.capstan.source.oci.OciSourceOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * A HelmChart's chart fetched outside the engine, into a store of its own: the repository's index
 * downloaded and the chart built by the same classes and within the same bounds as the engine's
 * HelmChart reconcile ({@link HelmChartInputs}), the repository's credentials and TLS read from its
 * Secrets as the engine reads them. A chart of a GitRepository is refused: its tree lives only in
 * the engine's store, and cloning it here is not done.
 */
public final class HelmChartFetch {
  private final KubernetesClient client;
  private final HelmIndexSource indexes;
  private final HelmChartInputs inputs;

  /** Fetching with {@code client}'s rights into a new store at {@code root}. */
  public HelmChartFetch(KubernetesClient client, Path root, Clock clock) {
    ArtifactStore store = new ArtifactStore(root, clock);
    OciSourceOptions oci = OciSourceOptions.of(store, clock);
    this.client = client;
    this.indexes = new HelmIndexSource(store, clock, IndexLimits.DEFAULTS, oci.reads());
    HelmChartSource charts =
        new HelmChartSource(store, clock, ChartLimits.DEFAULTS, IndexLimits.DEFAULTS, oci.reads());
    OciChartSource ociCharts =
        new OciChartSource(new OciSource(oci), store, clock, ChartLimits.DEFAULTS.archiveBytes());
    this.inputs = new HelmChartInputs(client, indexes, charts, ociCharts);
  }

  /**
   * The chart {@code chart} names, at the version its source offers now.
   *
   * @throws SourceException naming the source and what failed, never a credential
   */
  public StoredArtifact fetch(HelmChart chart) {
    HelmChartSourceReference ref = chart.getSpec().sourceRef();
    String key = HelmChartPipeline.key(chart);
    try {
      if (ref.kind() == HelmChartSourceReference.Kind.GitRepository) {
        throw new SourceException(
            FailureReason.UNSUPPORTED_SOURCE_KIND,
            "a chart of a GitRepository is built only by the engine");
      }
      if (ref.kind() == HelmChartSourceReference.Kind.HelmRepository) {
        fetchIndex(chart, ref.name());
      }
      FetchResult result = inputs.build(chart, key).result();
      if (result instanceof FetchResult.Failed failed) {
        throw new SourceException(failed.reason(), failed.message());
      }
      return result.artifact().orElseThrow();
    } catch (SourceInputs.Unavailable e) {
      throw new SourceException(e.reason(), e.getMessage());
    }
  }

  private void fetchIndex(HelmChart chart, String name) {
    String namespace = chart.getMetadata().getNamespace();
    String what = "HelmRepository '" + namespace + "/" + name + "'";
    HelmRepository repo;
    try {
      repo = client.resources(HelmRepository.class).inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw new SourceException(
          FailureReason.SOURCE_UNAVAILABLE, what + " could not be read: HTTP " + e.getCode());
    }
    if (repo == null) {
      throw new SourceException(FailureReason.SOURCE_UNAVAILABLE, what + " not found");
    }
    if (repo.getSpec() == null || repo.getSpec().oci()) {
      return; // a chart of an OCI registry is pulled without an index
    }
    String key = HelmRepositoryPipeline.key(repo);
    FetchResult index =
        indexes.fetch(HelmRequests.of(client, repo, key, HelmChartInputs.timeoutOf(repo)));
    if (index instanceof FetchResult.Failed failed) {
      throw new SourceException(failed.reason(), what + ": " + failed.message());
    }
  }
}
