package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HelmRelease CRD installs on a real API server, lists with Flux's columns and HEALTHY under
 * {@code hr}, keeps free-form values and refuses a release with both or neither of chart and
 * chartRef.
 */
@ExtendWith(KubernetesCluster.class)
class HelmReleaseCrdIT {

  @BeforeAll
  static void installCrds(KubernetesClient client) {
    CapstanCrds.install(client);
  }

  @Test
  void listsFluxsColumnsAndHealthyUnderItsShortNameWithFluxsDefaults(
      KubernetesClient client, TestNamespace ns) throws Exception {
    client.resource(release(ns, "podinfo", Map.of("chart", chartTemplate()))).create();

    Map<String, Object> table =
        table(client, "/apis/helm.capstan.dev/v2/namespaces/" + ns.name() + "/helmreleases");

    assertEquals(
        List.of("Name", "Age", "Ready", "Healthy", "Status"),
        list(table.get("columnDefinitions")).stream()
            .map(c -> ((Map<?, ?>) c).get("name"))
            .toList());
    var resource =
        client.getApiResources("helm.capstan.dev/v2").getResources().stream()
            .filter(r -> "helmreleases".equals(r.getName()))
            .findFirst()
            .orElseThrow();
    assertEquals(List.of("hr"), resource.getShortNames());
    assertEquals(List.of("all", "fluxcd", "fluxcd-appliers"), resource.getCategories());
    HelmRelease read =
        client.resources(HelmRelease.class).inNamespace(ns.name()).withName("podinfo").get();
    assertEquals("ChartVersion", read.getSpec().chart().spec().reconcileStrategy().name());
    assertEquals("*", read.getSpec().chart().spec().version());
    assertEquals(3, read.getSpec().values().at("/nested/list/2").asInt());
    assertEquals(-1L, read.getStatus().observedGeneration());
  }

  @Test
  void refusesBothOrNeitherOfChartAndChartRef(KubernetesClient client, TestNamespace ns) {
    Map<String, Object> chartRef = Map.of("kind", "OCIRepository", "name", "podinfo");
    KubernetesClientException both =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .resource(
                        release(ns, "both", Map.of("chart", chartTemplate(), "chartRef", chartRef)))
                    .create());
    assertTrue(both.getMessage().contains("either chart or chartRef"), both.getMessage());
    KubernetesClientException neither =
        assertThrows(
            KubernetesClientException.class,
            () -> client.resource(release(ns, "neither", Map.of())).create());
    assertTrue(neither.getMessage().contains("either chart or chartRef"), neither.getMessage());
    KubernetesClientException kind =
        assertThrows(
            KubernetesClientException.class,
            () ->
                client
                    .resource(
                        release(
                            ns,
                            "bad-kind",
                            Map.of("chartRef", Map.of("kind", "GitRepository", "name", "x"))))
                    .create());
    assertTrue(kind.getMessage().contains("spec.chartRef.kind"), kind.getMessage());
    client.resource(release(ns, "by-ref", Map.of("chartRef", chartRef))).create();
  }

  private static Map<String, Object> chartTemplate() {
    return Map.of(
        "spec",
        Map.of(
            "chart",
            "podinfo",
            "sourceRef",
            Map.of("kind", "HelmRepository", "name", "charts", "namespace", "flux-system")));
  }

  private static GenericKubernetesResource release(
      TestNamespace ns, String name, Map<String, Object> chart) {
    GenericKubernetesResource release = new GenericKubernetesResource();
    release.setApiVersion("helm.capstan.dev/v2");
    release.setKind("HelmRelease");
    release.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns.name()).build());
    Map<String, Object> spec = new HashMap<>(chart);
    spec.put("interval", "5m");
    spec.put("values", Map.of("replicaCount", 2, "nested", Map.of("list", List.of(1, 2, 3))));
    release.getAdditionalProperties().put("spec", spec);
    return release;
  }

  private static Map<String, Object> table(KubernetesClient client, String path) throws Exception {
    HttpRequest request =
        client
            .getHttpClient()
            .newHttpRequestBuilder()
            .uri(client.getMasterUrl().toString().replaceAll("/$", "") + path)
            .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
            .build();
    HttpResponse<String> response =
        client.getHttpClient().sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
    assertEquals(200, response.code(), response.body());
    return client.getKubernetesSerialization().unmarshal(response.body(), Map.class);
  }

  @SuppressWarnings("unchecked")
  private static <T> List<T> list(Object value) {
    return (List<T>) value;
  }
}
