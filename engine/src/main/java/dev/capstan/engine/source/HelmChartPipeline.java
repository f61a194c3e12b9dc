package dev.capstan.engine.source;

import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSpec;
import dev.capstan.api.source.HelmChartStatus;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.SourceFetch;
import dev.capstan.engine.pipeline.SourceKind;
import dev.capstan.engine.pipeline.SourceTimings;
import dev.capstan.source.core.status.SourceStatus;
import dev.capstan.source.core.status.SourceStatuses;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.helm.HelmChartSource;
import dev.capstan.source.helm.HelmIndexSource;
import dev.capstan.source.helm.OciChartSource;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a HelmChart adds to a source's reconcile ({@link SourceFetch}): its chart built from its
 * source ({@link HelmChartInputs}) into the store, its status written with what the artifact was
 * built from. A failure keeps the last good artifact. Knows nothing of the controller framework
 * that calls it.
 */
public final class HelmChartPipeline implements SourceKind<HelmChart> {
  private static final Logger LOG = LoggerFactory.getLogger(HelmChartPipeline.class);

  private final SourcePipelineParts parts;
  private final HelmChartSource charts;
  private final HelmChartInputs inputs;

  /** The source revision each chart's last build saw, until its status is written. */
  private final Map<NamespacedName, String> seenRevisions = new ConcurrentHashMap<>();

  public HelmChartPipeline(
      SourcePipelineParts parts,
      HelmIndexSource indexes,
      HelmChartSource charts,
      OciChartSource ociCharts) {
    this.parts = parts;
    this.charts = charts;
    this.inputs = new HelmChartInputs(parts.client(), indexes, charts, ociCharts);
  }

  /** The artifact store's key of a HelmChart: apart from every other kind's. */
  public static String key(HelmChart chart) {
    return "helmchart/" + chart.getMetadata().getNamespace() + "/" + chart.getMetadata().getName();
  }

  @Override
  public String kind() {
    return "HelmChart";
  }

  @Override
  public SourceTimings timings(HelmChart chart) {
    return SourceTimings.of(chart.getSpec().interval(), null);
  }

  @Override
  public Optional<StoredArtifact> lastArtifact(HelmChart chart) {
    return charts.lastArtifact(key(chart));
  }

  @Override
  public FetchResult fetch(HelmChart chart, SourceTimings timings) {
    HelmChartInputs.Built built = inputs.build(chart, key(chart));
    if (built.sourceRevision() != null) {
      seenRevisions.put(NamespacedName.of(chart), built.sourceRevision());
    }
    return built.result();
  }

  @Override
  public void writeStatus(HelmChart chart, FetchResult result) {
    HelmChartStatus previous = chart.getStatus();
    SourceStatus next =
        SourceStatuses.next(
            previousOf(previous), SourceFetch.generation(chart), result, parts.clock().instant());
    String seen = seenRevisions.remove(NamespacedName.of(chart));
    String sourceRevision =
        seen != null ? seen : previous == null ? null : previous.observedSourceArtifactRevision();
    Optional<StoredArtifact> artifact = next.artifact();
    HelmChartSpec spec = chart.getSpec();
    List<String> valuesFiles =
        artifact
            .filter(a -> spec != null && spec.missingValuesFilesIgnored())
            .map(HelmChartSource::valuesFiles)
            .filter(files -> !files.isEmpty())
            .orElse(null);
    String chartName =
        artifact
            .map(a -> a.metadata().get(HelmChartSource.CHART_NAME))
            .orElse(previous == null ? null : previous.observedChartName());
    parts
        .statuses()
        .write(
            chart,
            ApiSourceStatuses.chartStatus(
                next,
                SourceFetch.handledRequestedAt(
                    chart, previous == null ? null : previous.lastHandledReconcileAt()),
                sourceRevision,
                chartName,
                valuesFiles));
  }

  /** A HelmChart was deleted: its stored chart goes with it. */
  @Override
  public void deleted(HelmChart chart) {
    try {
      charts.forget(key(chart));
    } catch (IOException e) {
      // Left for the store's next collection; nothing reads a forgotten key's state.
      LOG.warn("could not forget the stored chart of {}: {}", key(chart), e.toString());
    }
    parts.statuses().forget(chart);
  }

  /** The previous status as the status function reads it. */
  private static SourceStatus previousOf(HelmChartStatus status) {
    return status == null
        ? SourceStatus.empty()
        : ApiSourceStatuses.fromApi(
            status.observedGeneration(), status.conditions(), status.artifact());
  }
}
