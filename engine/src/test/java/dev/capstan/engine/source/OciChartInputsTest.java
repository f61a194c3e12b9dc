package dev.capstan.engine.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.helm.OciChartRequest;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OciChartInputsTest {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static final HelmRepository REGISTRY =
      YAML.unmarshal(
          """
          apiVersion: source.capstan.dev/v1
          kind: HelmRepository
          metadata: {name: registry, namespace: team}
          spec: {type: oci, url: "oci://registry.example/charts", interval: 5m}
          """,
          HelmRepository.class);

  private static HelmChart chart(String extra) {
    return YAML.unmarshal(
        """
        apiVersion: source.capstan.dev/v1
        kind: HelmChart
        metadata: {name: app, namespace: team}
        spec:
          chart: app
          sourceRef: {kind: HelmRepository, name: registry}
          interval: 5m
        """
            + extra,
        HelmChart.class);
  }

  // No client: the repository names no Secret, and the keyless refusal comes before any read.
  @Test
  void valuesFilesAreMergedWithTheGenerationInTheVersionAsForAChartOfAnIndex() {
    HelmChart chart =
        chart("  valuesFiles: [values.yaml, values-prod.yaml]\n  ignoreMissingValuesFiles: true\n");
    chart.getMetadata().setGeneration(4L);

    OciChartRequest request =
        OciChartInputs.of(null, chart, REGISTRY, "helmchart/team/app", Optional.empty());

    assertEquals(List.of("values.yaml", "values-prod.yaml"), request.valuesFiles());
    assertTrue(request.ignoreMissingValuesFiles());
    assertEquals("4", request.versionMetadata());
    OciChartRequest plain =
        OciChartInputs.of(null, chart(""), REGISTRY, "helmchart/team/app", Optional.empty());
    assertEquals(List.of(), plain.valuesFiles());
    assertNull(plain.versionMetadata());
  }

  @Test
  void keylessVerificationIsRefusedAsForAnOciRepository() {
    SourceInputs.Unavailable e =
        assertThrows(
            SourceInputs.Unavailable.class,
            () ->
                OciChartInputs.of(
                    null,
                    chart("  verify: {provider: cosign}\n"),
                    REGISTRY,
                    "helmchart/team/app",
                    Optional.empty()));
    assertEquals(FailureReason.INVALID_SPEC, e.reason());
    assertTrue(e.getMessage().startsWith("spec.verify needs secretRef"), e.getMessage());
  }
}
