package dev.capstan.engine.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.capstan.api.source.HelmChart;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.helm.ChartLimits;
import dev.capstan.source.helm.HelmChartSource;
import dev.capstan.source.helm.HelmIndexSource;
import dev.capstan.source.helm.IndexLimits;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a HelmChart's build refuses before it reads anything of the cluster. */
class HelmChartInputsTest {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @TempDir Path storage;

  @Test
  void aBucketSourceIsRefusedByNameWithoutAsking() {
    ArtifactStore store = new ArtifactStore(storage, Clock.systemUTC());
    HelmChartSource charts =
        new HelmChartSource(
            store,
            Clock.systemUTC(),
            ChartLimits.DEFAULTS,
            IndexLimits.DEFAULTS,
            ReadDeadlines.withOwnThread(Clock.systemUTC()));
    // No client: nothing of the cluster may be read for a kind the engine has not.
    HelmChartInputs inputs =
        new HelmChartInputs(
            null,
            new HelmIndexSource(store, Clock.systemUTC(), IndexLimits.DEFAULTS),
            charts,
            null);
    HelmChart chart =
        YAML.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: HelmChart
            metadata: {name: app, namespace: team}
            spec:
              chart: app
              sourceRef: {kind: Bucket, name: bucket}
              interval: 5m
            """,
            HelmChart.class);

    HelmChartInputs.Built built = inputs.build(chart, HelmChartPipeline.key(chart));

    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, built.result());
    assertEquals(FailureReason.UNSUPPORTED_SOURCE_KIND, failed.reason());
    assertEquals(
        "spec.sourceRef.kind 'Bucket' is not supported: this engine builds no chart from a Bucket",
        failed.message());
    assertNull(built.sourceRevision());
  }
}
