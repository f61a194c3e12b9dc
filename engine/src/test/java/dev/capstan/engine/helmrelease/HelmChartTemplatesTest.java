package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.api.source.HelmChartSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HelmChart made for a HelmRelease's spec.chart, as Flux's helm-controller makes it. */
class HelmChartTemplatesTest {
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void aTemplateInAnotherNamespaceBecomesAHelmChartThereNamedAfterTheRelease() {
    HelmRelease release =
        release(
            """
            interval: 10m
            chart:
              metadata:
                labels: {team: web}
                annotations: {note: kept}
              spec:
                chart: podinfo
                version: "6.x"
                sourceRef: {kind: HelmRepository, name: charts, namespace: flux-system}
                interval: 1h
                reconcileStrategy: Revision
                valuesFiles: [values-prod.yaml]
                ignoreMissingValuesFiles: true
                verify: {provider: cosign, secretRef: {name: keys}}
            """);

    HelmChart chart = HelmChartTemplates.desired(release);

    assertEquals("apps-podinfo", chart.getMetadata().getName());
    assertEquals("flux-system", chart.getMetadata().getNamespace());
    assertEquals(
        Map.of(
            "team", "web",
            "helm.capstan.dev/name", "podinfo",
            "helm.capstan.dev/namespace", "apps"),
        chart.getMetadata().getLabels());
    assertEquals(Map.of("note", "kept"), chart.getMetadata().getAnnotations());
    HelmChartSpec spec = chart.getSpec();
    assertEquals("podinfo", spec.chart());
    assertEquals("6.x", spec.version());
    assertEquals(HelmChartSourceReference.Kind.HelmRepository, spec.sourceRef().kind());
    assertEquals("charts", spec.sourceRef().name());
    assertEquals("1h", spec.interval());
    assertEquals(HelmChartSpec.ReconcileStrategy.Revision, spec.reconcileStrategy());
    assertEquals(List.of("values-prod.yaml"), spec.valuesFiles());
    assertEquals(Boolean.TRUE, spec.ignoreMissingValuesFiles());
    assertEquals("cosign", spec.verify().effectiveProvider());
    assertEquals("keys", spec.verify().secretRef().name());
  }

  @Test
  void aTemplateWithoutNamespaceOrIntervalTakesTheReleases() {
    HelmRelease release =
        release(
            """
            interval: 5m
            chart:
              spec:
                chart: ./charts/app
                sourceRef: {kind: GitRepository, name: repo}
            """);

    HelmChart chart = HelmChartTemplates.desired(release);

    assertEquals("apps", chart.getMetadata().getNamespace());
    assertEquals("5m", chart.getSpec().interval());
    assertEquals("*", chart.getSpec().effectiveVersion());
    assertNull(chart.getSpec().verify());
    assertNull(chart.getMetadata().getAnnotations());
  }

  @Test
  void aReleaseOfAChartRefHasNoTemplate() {
    HelmRelease release =
        release(
            """
            interval: 5m
            chartRef: {kind: OCIRepository, name: podinfo}
            """);
    assertThrows(IllegalArgumentException.class, () -> HelmChartTemplates.desired(release));
  }

  @Test
  void theGenerationAnApplyWouldLeaveIsTheLiveOnesUnlessTheSpecChanges() {
    HelmRelease release = withValuesFile("values-prod.yaml");
    HelmChart desired = HelmChartTemplates.desired(release);
    assertEquals(1, ClusterChartSources.generationAfterApply(null, desired));
    HelmChart live = HelmChartTemplates.desired(release);
    live.getMetadata().setGeneration(4L);
    assertEquals(4, ClusterChartSources.generationAfterApply(live, desired));
    HelmChart before = HelmChartTemplates.desired(withValuesFile("values-staging.yaml"));
    before.getMetadata().setGeneration(4L);
    assertEquals(5, ClusterChartSources.generationAfterApply(before, desired));
  }

  private HelmRelease withValuesFile(String file) {
    return release(
        """
        chart:
          spec:
            chart: podinfo
            sourceRef: {kind: HelmRepository, name: charts}
            valuesFiles: [%s]
        """
            .formatted(file));
  }

  private HelmRelease release(String spec) {
    return serialization.unmarshal(
        "apiVersion: helm.capstan.dev/v2\nkind: HelmRelease\n"
            + "metadata: {name: podinfo, namespace: apps}\nspec:\n"
            + spec.indent(2),
        HelmRelease.class);
  }
}
