package dev.capstan.engine.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.source.HelmChart;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The source a HelmChart is indexed under, by which its source's changes find it. */
class HelmChartReconcilerTest {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void aChartIsIndexedUnderItsSourcesKindNamespaceAndName() {
    HelmChart fromRepo = chart("sourceRef: {kind: HelmRepository, name: charts}");
    HelmChart fromGit = chart("sourceRef: {kind: GitRepository, name: repo}");

    assertEquals(List.of("HelmRepository/team/charts"), HelmChartReconciler.sourceOf(fromRepo));
    assertEquals(List.of("GitRepository/team/repo"), HelmChartReconciler.sourceOf(fromGit));
  }

  @Test
  void aChartWithoutASourceIsIndexedUnderNothing() {
    assertEquals(List.of(), HelmChartReconciler.sourceOf(chart("chart: app")));
  }

  private static HelmChart chart(String spec) {
    return YAML.unmarshal(
        """
        apiVersion: source.capstan.dev/v1
        kind: HelmChart
        metadata: {name: app, namespace: team}
        spec:
          %s
        """
            .formatted(spec),
        HelmChart.class);
  }
}
