package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.testing.LocalApiServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HelmRelease's chart source is read from the informers' cache when it holds it: an unchanged
 * release's look asks the API server nothing; a source the cache lacks is read from the API server,
 * and a HelmChart of spec.chart that differs from the one last applied is applied again.
 */
class ClusterChartSourcesTest {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final NamespacedName OCI = new NamespacedName("apps", "podinfo");
  private static final NamespacedName CHART = new NamespacedName("apps", "apps-podinfo");

  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final Map<String, HasMetadata> served = new ConcurrentHashMap<>();
  private final Map<NamespacedName, HelmChart> cachedCharts = new ConcurrentHashMap<>();
  private final Map<NamespacedName, OCIRepository> cachedOci = new ConcurrentHashMap<>();
  private LocalApiServer api;
  private ClusterChartSources sources;

  @BeforeEach
  void start(@TempDir Path store) throws IOException {
    Files.writeString(store.resolve("podinfo-6.5.0.tgz"), "a chart");
    api = LocalApiServer.start(this::answer);
    sources =
        new ClusterChartSources(
            api.client(),
            digest -> "sha256:aaaa".equals(digest) ? Optional.of(store) : Optional.empty(),
            new ChartSourceCache() {
              @Override
              public Optional<HelmChart> helmChart(NamespacedName key) {
                return Optional.ofNullable(cachedCharts.get(key));
              }

              @Override
              public Optional<OCIRepository> ociRepository(NamespacedName key) {
                return Optional.ofNullable(cachedOci.get(key));
              }
            });
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void aChartRefTheCacheHoldsIsReadFromItAlone() {
    cachedOci.put(OCI, read("oci-repository.yaml", OCIRepository.class));

    ChartArtifact chart = sources.find(read("oci-chart-ref.yaml", HelmRelease.class));

    assertEquals(List.of(), requests, "nothing asked of the API server");
    assertTrue(chart.oci());
    assertEquals("podinfo-6.5.0.tgz", chart.chart());
    assertEquals("6.5.0+0123456789ab", chart.attemptedRevision());
  }

  @Test
  void aChartRefTheCacheLacksIsReadFromTheApiServer() {
    served.put(
        "/apis/source.capstan.dev/v1/namespaces/apps/ocirepositories/podinfo",
        read("oci-repository.yaml", OCIRepository.class));

    ChartArtifact chart = sources.find(read("oci-chart-ref.yaml", HelmRelease.class));

    assertEquals(
        List.of("GET /apis/source.capstan.dev/v1/namespaces/apps/ocirepositories/podinfo"),
        requests);
    assertEquals("sha256:aaaa", chart.digest());
  }

  @Test
  void theHelmChartOfSpecChartIsReadFromTheCacheWhileItHoldsWhatWasLastApplied() {
    HelmRelease release = ReleaseFakes.release();
    sources.find(release);
    assertEquals(
        List.of("GET " + chartPath(), "PATCH " + chartPath()), requests, "made at the first look");
    HelmChart applied = (HelmChart) served.get(chartPath());

    requests.clear();
    cachedCharts.put(CHART, applied);
    ChartArtifact chart = sources.find(release);
    assertEquals(List.of(), requests, "an unchanged release's look asks nothing");
    assertEquals("6.5.0", chart.revision());

    requests.clear();
    cachedCharts.put(CHART, withVersion(applied, "7.x"));
    sources.find(release);
    assertEquals(
        List.of("GET " + chartPath()),
        requests,
        "a cache behind the API server: read, and nothing applied while the cluster holds it");

    requests.clear();
    served.put(chartPath(), withVersion(applied, "7.x"));
    sources.find(release);
    assertEquals(
        List.of("GET " + chartPath(), "PATCH " + chartPath()),
        requests,
        "a HelmChart changed by someone else is applied again");
  }

  private static String chartPath() {
    return "/apis/source.capstan.dev/v1/namespaces/apps/helmcharts/apps-podinfo";
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String method = exchange.getRequestMethod();
    requests.add(method + " " + path);
    HasMetadata object = served.get(path);
    if ("PATCH".equals(method)) {
      object = withArtifact(exchange.getRequestBody());
      served.put(path, object);
    }
    byte[] body =
        object == null
            ? ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    + "\"reason\":\"NotFound\",\"code\":404}")
                .getBytes(StandardCharsets.UTF_8)
            : JSON.asJson(object).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(object == null ? 404 : 200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  /** The applied HelmChart as the API server and its controller leave it: with an artifact. */
  private static HelmChart withArtifact(InputStream body) throws IOException {
    Map<String, Object> chart =
        JSON.unmarshal(new String(body.readAllBytes(), StandardCharsets.UTF_8), Map.class);
    @SuppressWarnings("unchecked")
    Map<String, Object> metadata = (Map<String, Object>) chart.get("metadata");
    metadata.put("generation", 1);
    chart.put(
        "status",
        Map.of(
            "observedGeneration",
            1,
            "artifact",
            Map.of("revision", "6.5.0", "digest", "sha256:aaaa")));
    return JSON.convertValue(chart, HelmChart.class);
  }

  /** {@code chart} as another client that set its spec.version to {@code version} left it. */
  @SuppressWarnings("unchecked")
  private static HelmChart withVersion(HelmChart chart, String version) {
    Map<String, Object> edited = JSON.convertValue(chart, Map.class);
    ((Map<String, Object>) edited.get("spec")).put("version", version);
    return JSON.convertValue(edited, HelmChart.class);
  }

  private static <T> T read(String name, Class<T> type) {
    try (InputStream in =
        ClusterChartSourcesTest.class.getResourceAsStream("/helmrelease/sources/" + name)) {
      return JSON.unmarshal(new String(in.readAllBytes(), StandardCharsets.UTF_8), type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
