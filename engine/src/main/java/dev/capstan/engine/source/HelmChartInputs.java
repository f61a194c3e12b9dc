package dev.capstan.engine.source;

import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.api.source.HelmChartSpec;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.helm.ChartRequest;
import dev.capstan.source.helm.ChartVersions;
import dev.capstan.source.helm.DependencyRepositories;
import dev.capstan.source.helm.HelmChartSource;
import dev.capstan.source.helm.HelmIndexRequest;
import dev.capstan.source.helm.HelmIndexSource;
import dev.capstan.source.helm.OciChartSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What one build of a HelmChart reads: its source (a HelmRepository's stored index, an OCI registry
 * a HelmRepository of type oci names, or a GitRepository's artifact), checked as Flux checks it (a
 * missing source, one without an artifact, a Bucket and {@code spec.verify} of a chart not from an
 * OCI registry each refused by name), and the build it asks of {@link HelmChartSource}, or the pull
 * it asks of {@link OciChartSource}.
 */
final class HelmChartInputs {
  /** What a build saw of its source: the artifact's revision, for the status. */
  record Built(FetchResult result, String sourceRevision) {}

  private final KubernetesClient client;
  private final HelmIndexSource indexes;
  private final HelmChartSource charts;
  private final OciChartSource ociCharts;

  HelmChartInputs(
      KubernetesClient client,
      HelmIndexSource indexes,
      HelmChartSource charts,
      OciChartSource ociCharts) {
    this.client = client;
    this.indexes = indexes;
    this.charts = charts;
    this.ociCharts = ociCharts;
  }

  Built build(HelmChart chart, String key) {
    HelmChartSpec spec = chart.getSpec();
    HelmChartSourceReference ref = spec.sourceRef();
    Optional<StoredArtifact> last = charts.lastArtifact(key);
    try {
      return switch (ref.kind()) {
        case HelmRepository -> fromRepository(chart, key, last);
        case GitRepository -> fromGit(chart, key, last);
        case Bucket ->
            throw new SourceInputs.Unavailable(
                FailureReason.UNSUPPORTED_SOURCE_KIND,
                "spec.sourceRef.kind 'Bucket' is not supported: this engine builds no chart from a"
                    + " Bucket");
      };
    } catch (SourceInputs.Unavailable e) {
      return new Built(new FetchResult.Failed(e.reason(), e.getMessage(), last), null);
    }
  }

  private Built fromRepository(HelmChart chart, String key, Optional<StoredArtifact> last) {
    HelmChartSpec spec = chart.getSpec();
    HelmRepository repo = get(HelmRepository.class, chart);
    if (repo.getSpec() != null && repo.getSpec().oci()) {
      return new Built(
          ociCharts.pull(OciChartInputs.of(client, chart, repo, key, timeoutOf(repo))), null);
    }
    refuseVerify(spec);
    StoredArtifact index =
        indexes.lastArtifact(HelmRepositoryPipeline.key(repo)).orElseThrow(() -> noArtifact(spec));
    HelmIndexRequest request =
        HelmRequests.of(client, repo, HelmRepositoryPipeline.key(repo), timeoutOf(repo));
    Long generation = spec.allValuesFiles().isEmpty() ? null : SourceFetch.generation(chart);
    ChartRequest build =
        request(chart, key)
            .withVersion(spec.effectiveVersion())
            .withVersionMetadata(ChartVersions.metadata(null, generation))
            .withTimeout(request.target().timeout());
    return new Built(charts.fromRepository(build, request, index), index.revision());
  }

  private Built fromGit(HelmChart chart, String key, Optional<StoredArtifact> last) {
    HelmChartSpec spec = chart.getSpec();
    GitRepository repo = get(GitRepository.class, chart);
    refuseVerify(spec);
    // The tree this engine stored for the repository, never a directory its status names: whoever
    // may write a GitRepository's status must not choose what is packaged.
    StoredArtifact source =
        charts
            .lastArtifact(SourcePipeline.key(repo))
            .filter(a -> a.digest() != null && Files.isDirectory(a.path()))
            .orElseThrow(() -> noArtifact(spec));
    boolean byRevision = spec.effectiveStrategy() == HelmChartSpec.ReconcileStrategy.Revision;
    Long generation = spec.allValuesFiles().isEmpty() ? null : SourceFetch.generation(chart);
    ChartRequest build =
        request(chart, key)
            .withVersionMetadata(
                ChartVersions.metadata(byRevision ? source.revision() : null, generation));
    return new Built(
        charts.fromDirectory(build, source, url -> dependencyRepository(chart, url)),
        source.revision());
  }

  /**
   * The HelmRepository of the chart's namespace whose URL is a dependency's (a trailing slash
   * aside), with its stored index, as Flux resolves a chart's dependencies.
   */
  private Optional<DependencyRepositories.Repository> dependencyRepository(
      HelmChart chart, String url) {
    String wanted = withoutTrailingSlash(url);
    List<HelmRepository> repos =
        client
            .resources(HelmRepository.class)
            .inNamespace(chart.getMetadata().getNamespace())
            .list()
            .getItems();
    for (HelmRepository repo : repos) {
      if (repo.getSpec() == null
          || repo.getSpec().oci()
          || !wanted.equals(withoutTrailingSlash(repo.getSpec().url()))) {
        continue;
      }
      String key = HelmRepositoryPipeline.key(repo);
      Optional<StoredArtifact> index = indexes.lastArtifact(key);
      if (index.isPresent()) {
        HelmIndexRequest request = HelmRequests.of(client, repo, key, timeoutOf(repo));
        return Optional.of(new DependencyRepositories.Repository(request, index.get()));
      }
    }
    return Optional.empty();
  }

  private static String withoutTrailingSlash(String url) {
    String text = url == null ? "" : url.strip();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }

  /** The repository's timeout, which a chart's download keeps to as its index's does. */
  static Optional<Duration> timeoutOf(HelmRepository repo) {
    try {
      return SourceTimings.of(HelmRepositoryPipeline.DEFAULT_INTERVAL, repo.getSpec().timeout())
          .timeout();
    } catch (IllegalArgumentException e) {
      throw new SourceInputs.Unavailable(
          FailureReason.INVALID_SPEC, "the HelmRepository's " + e.getMessage());
    }
  }

  private static ChartRequest request(HelmChart chart, String key) {
    HelmChartSpec spec = chart.getSpec();
    return ChartRequest.of(key, spec.chart())
        .withValuesFiles(spec.allValuesFiles())
        .withIgnoreMissingValuesFiles(spec.missingValuesFilesIgnored());
  }

  /** As Flux: signatures are checked only for charts of an OCI repository. */
  private static void refuseVerify(HelmChartSpec spec) {
    if (spec.verify() != null) {
      throw new SourceInputs.Unavailable(
          FailureReason.INVALID_SPEC,
          "spec.verify is only supported for charts from a HelmRepository of type oci; remove it "
              + "for a "
              + spec.sourceRef().kind()
              + " source");
    }
  }

  private <S extends HasMetadata> S get(Class<S> kind, HelmChart chart) {
    String name = chart.getSpec().sourceRef().name();
    String namespace = chart.getMetadata().getNamespace();
    String named = kind.getSimpleName() + " '" + namespace + "/" + name + "'";
    S source;
    try {
      source = client.resources(kind).inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw sourceUnavailable(named + ": HTTP " + e.getCode());
    }
    if (source == null) {
      throw sourceUnavailable(named + " not found");
    }
    return source;
  }

  private static SourceInputs.Unavailable sourceUnavailable(String why) {
    return new SourceInputs.Unavailable(
        FailureReason.SOURCE_UNAVAILABLE, "failed to get source: " + why);
  }

  private static SourceInputs.Unavailable noArtifact(HelmChartSpec spec) {
    return new SourceInputs.Unavailable(
        FailureReason.NO_SOURCE_ARTIFACT,
        "no artifact available for "
            + spec.sourceRef().kind()
            + " source '"
            + spec.sourceRef().name()
            + "'");
  }
}
