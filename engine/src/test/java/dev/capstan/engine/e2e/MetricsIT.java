package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.ops.OperationsExtension;
import dev.capstan.engine.ops.OperationsSettings;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pipeline metrics on the engine's real /metrics endpoint: objects applied and pruned per
 * reconcile, fetch duration, health wait duration, and a failure written to the status counted as a
 * failed reconcile.
 */
@ExtendWith(KubernetesCluster.class)
class MetricsIT {
  private static EngineFixture engine;
  private static GitFixture git;
  private static OperationsExtension operations;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start(ClusterAccess cluster, TestNamespace namespace, @TempDir Path repo) {
    operations =
        new OperationsExtension(
            OperationsSettings.of("127.0.0.1:0", "127.0.0.1:0", null),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            Clock.systemUTC());
    engine =
        EngineFixture.start(
            EngineFixture.client(cluster.kubeconfig()),
            namespace.name(),
            o -> o,
            List.of(operations));
    git = GitFixture.create(repo);
  }

  @AfterAll
  static void stop() {
    if (engine != null) {
      engine.close();
    }
    if (git != null) {
      git.close();
    }
  }

  @Test
  void pipelineMetricsAreFed() throws Exception {
    String ns = engine.namespace;
    git.commit(
        Map.of(
            "app/a.yaml", Manifests.configMap("a", "1"),
            "app/b.yaml", Manifests.configMap("b", "1"),
            "app/c.yaml", Manifests.configMap("c", "1")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "  wait: true");
    engine.kustomization("broken", "repo", "./does-not-exist", "");
    engine.awaitCondition(
        "app", "Ready", Duration.ofSeconds(60), c -> "True".equals(c.getStatus()));
    engine.awaitCondition(
        "broken", "Ready", Duration.ofSeconds(60), c -> "BuildFailed".equals(c.getReason()));

    Map<String, String> removal = new HashMap<>();
    removal.put("app/c.yaml", null);
    String next = git.commit(removal);
    engine.requestReconcile(GitRepository.class, "repo");
    engine.awaitCondition(
        "app",
        "Ready",
        Duration.ofSeconds(60),
        c -> ("Applied revision: " + next).equals(c.getMessage()));

    String app = "kind=\"Kustomization\",name=\"app\",namespace=\"" + ns + "\"";
    EngineFixture.eventually(Duration.ofSeconds(10))
        .until(
            () ->
                value(scrape(), "capstan_reconcile_objects_pruned_objects_sum", app).orElse(0)
                    == 1);
    String metrics = scrape();
    // First reconcile created 3, the second changed none: 3 applied over at least 2 reconciles.
    assertEquals(
        3,
        value(metrics, "capstan_reconcile_objects_applied_objects_sum", app).orElseThrow(),
        metrics);
    assertTrue(
        value(metrics, "capstan_reconcile_objects_applied_objects_count", app).orElseThrow() >= 2,
        metrics);
    assertEquals(
        3,
        value(metrics, "capstan_reconcile_objects_applied_objects_max", app).orElseThrow(),
        metrics);
    assertEquals(
        1,
        value(metrics, "capstan_reconcile_objects_pruned_objects_max", app).orElseThrow(),
        metrics);

    String repo =
        "kind=\"GitRepository\",name=\"repo\",namespace=\"" + ns + "\",result=\"success\"";
    assertTrue(
        value(metrics, "capstan_source_fetch_duration_seconds_count", repo).orElseThrow() >= 2,
        metrics);
    double fetchSum =
        value(metrics, "capstan_source_fetch_duration_seconds_sum", repo).orElseThrow();
    assertTrue(fetchSum > 0 && fetchSum < 60, metrics);

    String waited = app + ",result=\"success\"";
    assertTrue(
        value(metrics, "capstan_health_wait_duration_seconds_count", waited).orElseThrow() >= 2,
        metrics);
    double waitMax =
        value(metrics, "capstan_health_wait_duration_seconds_max", waited).orElseThrow();
    assertTrue(waitMax >= 0 && waitMax < 60, metrics);

    String brokenFailed =
        "kind=\"Kustomization\",name=\"broken\",namespace=\"" + ns + "\",result=\"failure\"";
    assertTrue(
        value(metrics, "capstan_reconcile_duration_seconds_count", brokenFailed).orElseThrow() >= 1,
        metrics);
    String brokenSucceeded = brokenFailed.replace("failure", "success");
    assertTrue(
        value(metrics, "capstan_reconcile_duration_seconds_count", brokenSucceeded).isEmpty(),
        "a build failure written to the status is not a successful reconcile: " + metrics);
    assertTrue(
        value(metrics, "capstan_reconcile_duration_seconds_count", app + ",result=\"success\"")
                .orElseThrow()
            >= 2,
        metrics);
  }

  private String scrape() throws Exception {
    int port = operations.metricsAddress().orElseThrow().getPort();
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());
    return response.body();
  }

  /** The value of the series {@code name{labels}} (labels in the exporter's alphabetical order). */
  private static OptionalDouble value(String metrics, String name, String labels) {
    Matcher m =
        Pattern.compile(
                "^" + Pattern.quote(name + "{" + labels + "}") + " (\\S+)$", Pattern.MULTILINE)
            .matcher(metrics);
    return m.find() ? OptionalDouble.of(Double.parseDouble(m.group(1))) : OptionalDouble.empty();
  }
}
