package dev.capstan.cli.apply;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.CliRun;
import dev.capstan.engine.Engine;
import dev.capstan.engine.EngineOptions;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.CapstanCrds;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capstan diff hr} of a HelmRelease the engine installed from a chart a HelmRepository
 * serves over HTTP, its values partly from a Secret: right after the install nothing would change
 * (exit 0); with the engine stopped, a changed value, a changed Secret value and a value that
 * disables a template show the changed field, mask what came from the Secret, list the dropped
 * object as to be deleted (exit 1); a HelmRelease that is not there is one line (exit 2).
 */
@ExtendWith(KubernetesCluster.class)
class DiffHelmReleaseIT {
  private static final String SELECTOR = "capstan.test/diff-hr";
  private static final String OLD_SECRET = "hush-old-7f3a";
  private static final String NEW_SECRET = "hush-new-91bc";

  @Test
  void showsTheNextUpgradeMaskingSecretValuesAndDroppedObjects(
      KubernetesClient client, TestNamespace namespace, ClusterAccess access, @TempDir Path dir)
      throws Exception {
    String ns = namespace.name();
    CapstanCrds.install(client);
    try (IndexServer charts = IndexServer.http()) {
      publish(charts);
      Engine engine =
          new Engine(
              EngineOptions.defaults(Files.createDirectories(dir.resolve("artifacts")))
                  .withWatchLabelSelector(Optional.of(SELECTOR + "=" + ns))
                  .withWaitPoll(Duration.ofSeconds(1)),
              client,
              List.of());
      try {
        engine.start();
        create(client, ns, charts);
        await()
            .atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> ready(client, ns));
      } finally {
        engine.close();
      }
      assertTrue(exists(client, ns, "shop-extra"), "the extra ConfigMap was installed");

      CliRun same = diff(access, ns, "shop");
      assertEquals(0, same.exitCode(), same::toString);
      assertFalse(same.out().contains(OLD_SECRET), same::toString);

      // the engine is stopped: nothing releases these changes before the diff looks
      client
          .secrets()
          .inNamespace(ns)
          .withName("shop-values")
          .edit(s -> secret("greeting: " + NEW_SECRET + "\n"));
      client
          .genericKubernetesResources("helm.capstan.dev/v2", "HelmRelease")
          .inNamespace(ns)
          .withName("shop")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"values\":{\"color\":\"green\",\"extra\":false}}}");

      CliRun changed = diff(access, ns, "shop");
      assertEquals(1, changed.exitCode(), changed::toString);
      String out = changed.out();
      assertTrue(
          out.contains("~ ConfigMap/" + ns + "/shop-settings (would change)"), changed::toString);
      assertTrue(out.contains("+  color: \"green\""), changed::toString);
      assertTrue(out.contains("+  greeting: \"***\""), changed::toString);
      // the deployed value that changes is masked too: its record cannot say where it came from
      assertTrue(out.contains("-  color: \"***\""), changed::toString);
      assertFalse(out.contains("blue"), changed::toString);
      assertFalse(out.contains(NEW_SECRET), changed::toString);
      assertFalse(out.contains(OLD_SECRET), changed::toString);
      assertTrue(
          out.lines().anyMatch(l -> l.contains("shop-extra") && l.contains("would be deleted")),
          changed::toString);
      assertTrue(exists(client, ns, "shop-extra"), "a diff deletes nothing");

      CliRun missing = diff(access, ns, "absent");
      assertEquals(2, missing.exitCode(), missing::toString);
      assertEquals(1, missing.err().lines().count(), missing::toString);
      assertTrue(
          missing.err().contains("HelmRelease '" + ns + "/absent' not found"), missing::toString);
    }
  }

  private static CliRun diff(ClusterAccess access, String ns, String name) {
    return CliRun.capstan(access.kubeconfig(), "diff", "hr", name, "-n", ns);
  }

  private static boolean ready(KubernetesClient client, String ns) {
    GenericKubernetesResource release =
        client
            .genericKubernetesResources("helm.capstan.dev/v2", "HelmRelease")
            .inNamespace(ns)
            .withName("shop")
            .get();
    if (release == null
        || !(release.getAdditionalProperties().get("status") instanceof Map<?, ?> s)
        || !(s.get("conditions") instanceof List<?> conditions)) {
      return false;
    }
    return conditions.stream()
        .map(Map.class::cast)
        .anyMatch(c -> "Ready".equals(c.get("type")) && "True".equals(c.get("status")));
  }

  private static boolean exists(KubernetesClient client, String ns, String name) {
    return client.configMaps().inNamespace(ns).withName(name).get() != null;
  }

  private static Secret secret(String values) {
    return new SecretBuilder()
        .withMetadata(new ObjectMetaBuilder().withName("shop-values").build())
        .withStringData(Map.of("values.yaml", values))
        .build();
  }

  private static void create(KubernetesClient client, String ns, IndexServer charts) {
    client.secrets().inNamespace(ns).resource(secret("greeting: " + OLD_SECRET + "\n")).create();
    client
        .resource(
            object(
                ns,
                "source.capstan.dev/v1",
                "HelmRepository",
                "charts",
                Map.of("url", charts.url(), "interval", "1m")))
        .create();
    Map<String, Object> chart =
        Map.of(
            "metadata",
            Map.of("labels", Map.of(SELECTOR, ns)),
            "spec",
            Map.of(
                "chart",
                "shop",
                "version",
                "1.0.0",
                "interval",
                "1m",
                "sourceRef",
                Map.of("kind", "HelmRepository", "name", "charts")));
    client
        .resource(
            object(
                ns,
                "helm.capstan.dev/v2",
                "HelmRelease",
                "shop",
                Map.of(
                    "interval",
                    "10m",
                    "chart",
                    chart,
                    "valuesFrom",
                    List.of(
                        Map.of(
                            "kind", "Secret", "name", "shop-values", "valuesKey", "values.yaml")),
                    "values",
                    Map.of("color", "blue", "extra", true))))
        .create();
  }

  private static GenericKubernetesResource object(
      String ns, String apiVersion, String kind, String name, Map<String, Object> spec) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setApiVersion(apiVersion);
    object.setKind(kind);
    object.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(ns)
            .withLabels(Map.of(SELECTOR, ns))
            .build());
    object.setAdditionalProperty("spec", spec);
    return object;
  }

  /** The chart {@code shop} 1.0.0: its settings, and a ConfigMap value {@code extra} turns on. */
  private static void publish(IndexServer charts) {
    byte[] tgz =
        TestCharts.chart("shop", "1.0.0")
            .without("shop/templates/configmap.yaml")
            .file("shop/values.yaml", "color: red\ngreeting: none\nextra: false\n")
            .file(
                "shop/templates/configmap.yaml",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: {{ .Release.Name }}-settings}
                data:
                  color: {{ .Values.color | quote }}
                  greeting: {{ .Values.greeting | quote }}
                """)
            .file(
                "shop/templates/extra.yaml",
                """
                {{- if .Values.extra }}
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: {{ .Release.Name }}-extra}
                data: {enabled: "yes"}
                {{- end }}
                """)
            .tgz();
    charts.serveFile("shop-1.0.0.tgz", tgz);
    charts.serve(TestCharts.index("shop", Map.of("1.0.0", tgz)).getBytes(StandardCharsets.UTF_8));
  }
}
