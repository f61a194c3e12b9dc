package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.cli.CapstanMain;
import dev.capstan.engine.ops.OperationsExtension;
import dev.capstan.engine.ops.OperationsSettings;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code spec.driftDetection.mode}: warn reports what another writer changed or deleted (Drifted
 * condition, an Event, {@code capstan get -o wide}) and writes nothing; disabled does not look;
 * enabled corrects.
 */
@ExtendWith(KubernetesCluster.class)
class DriftDetectionIT {
  private static EngineFixture engine;
  private static GitFixture git;
  private static Path kubeconfig;

  @BeforeAll
  static void start(ClusterAccess cluster, TestNamespace namespace, @TempDir Path repo) {
    kubeconfig = cluster.kubeconfig();
    OperationsExtension events =
        new OperationsExtension(
            OperationsSettings.of("127.0.0.1:0", "127.0.0.1:0", null),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            Clock.systemUTC());
    engine =
        EngineFixture.start(
            EngineFixture.client(kubeconfig), namespace.name(), o -> o, List.of(events));
    git = GitFixture.create(repo);
    git.commit(
        Map.of(
            "warn/settings.yaml", Manifests.configMap("settings", "git"),
            "warn/flags.yaml", Manifests.configMap("flags", "on"),
            "other/limits.yaml", Manifests.configMap("limits", "git")));
    engine.gitRepository("repo", git.url());
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
  void warnReportsTheChangedFieldsAndTheDeletedObjectAndWritesNothing() {
    String ns = engine.namespace;
    engine.kustomization("app", "repo", "./warn", "  driftDetection: {mode: warn}");
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), c -> isTrue(c));
    engine.awaitCondition("app", "Drifted", Duration.ofSeconds(10), c -> !isTrue(c));

    edit("settings", "by-hand");
    engine.client.configMaps().inNamespace(ns).withName("flags").delete();
    EngineFixture.eventually(Duration.ofSeconds(30)).until(() -> configMap("flags") == null);
    String version = configMap("settings").getMetadata().getResourceVersion();
    engine.reconcileAndWait("app", Duration.ofSeconds(60));

    String expected =
        "2 objects drifted: ConfigMap/"
            + ns
            + "/flags: deleted from the cluster; ConfigMap/"
            + ns
            + "/settings: /data/value";
    assertEquals(
        expected,
        engine
            .awaitCondition("app", "Drifted", Duration.ofSeconds(10), c -> isTrue(c))
            .getMessage());
    assertEquals("True", engine.condition("app", "Ready").orElseThrow().getStatus());
    assertEquals("by-hand", configMap("settings").getData().get("value"));
    assertEquals(version, configMap("settings").getMetadata().getResourceVersion());
    assertNull(configMap("flags"), "not created again");

    Event event =
        EngineFixture.eventually(Duration.ofSeconds(30))
            .until(() -> driftEvent("app"), Optional::isPresent)
            .orElseThrow();
    assertEquals("Warning", event.getType());
    assertEquals(expected, event.getMessage());

    String wide = capstan("get", "ks", "app", "-n", ns, "-o", "wide");
    List<String> lines = wide.lines().toList();
    int column = lines.get(0).indexOf("DRIFTED");
    assertTrue(column > 0, wide);
    assertTrue(lines.get(1).substring(column).startsWith("True"), wide);
  }

  @Test
  void disabledDoesNotLookAndEnabledCorrects() {
    String ns = engine.namespace;
    engine.kustomization("other", "repo", "./other", "  driftDetection: {mode: disabled}");
    engine.awaitCondition("other", "Ready", Duration.ofSeconds(60), c -> isTrue(c));

    edit("limits", "by-hand");
    engine.reconcileAndWait("other", Duration.ofSeconds(60));
    assertEquals("by-hand", configMap("limits").getData().get("value"));
    assertTrue(engine.condition("other", "Drifted").isEmpty());

    engine
        .client
        .resources(Kustomization.class)
        .inNamespace(ns)
        .withName("other")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"driftDetection\":{\"mode\":\"enabled\"}}}");
    EngineFixture.eventually(Duration.ofSeconds(60))
        .until(() -> "git".equals(configMap("limits").getData().get("value")));
  }

  private static boolean isTrue(Condition c) {
    return "True".equals(c.getStatus());
  }

  private static Optional<Event> driftEvent(String name) {
    return engine.client.v1().events().inNamespace(engine.namespace).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> "DriftDetected".equals(e.getReason()))
        .findFirst();
  }

  private static void edit(String name, String value) {
    engine
        .client
        .configMaps()
        .inNamespace(engine.namespace)
        .withName(name)
        .patch(
            new PatchContext.Builder()
                .withPatchType(PatchType.JSON_MERGE)
                .withFieldManager("kubectl-edit")
                .build(),
            "{\"data\":{\"value\":\"" + value + "\"}}");
  }

  private static ConfigMap configMap(String name) {
    return engine.client.configMaps().inNamespace(engine.namespace).withName(name).get();
  }

  private static String capstan(String... args) {
    CommandLine cli = CapstanMain.commandLine();
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(new StringWriter(), true));
    String[] all = Arrays.copyOf(args, args.length + 2);
    all[args.length] = "--kubeconfig";
    all[args.length + 1] = kubeconfig.toString();
    assertEquals(0, cli.execute(all));
    return out.toString();
  }
}
