package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.kustomize.KubernetesChartLookups;
import dev.capstan.kustomize.chart.ChartRender;
import dev.capstan.kustomize.chart.ChartRenderException;
import dev.capstan.kustomize.chart.ChartRenderRequest;
import dev.capstan.kustomize.chart.ChartRenderer;
import dev.capstan.kustomize.chart.ChartWorkerSettings;
import dev.capstan.kustomize.worker.AnswerRoom;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chart's {@code lookup} reads the live cluster through {@link KubernetesChartLookups}, with a
 * read-only identity the caller chose (a service account that may read ConfigMaps and nothing else,
 * impersonated, its client's namespace the test's): an existing ConfigMap is rendered from, a
 * missing one, or one named without a namespace, is Helm's empty map, and a Secret the identity may
 * not read fails the template as Helm's {@code lookup} does.
 */
@ExtendWith(KubernetesCluster.class)
class TemplateLookupIT {
  private static final long MIB = 1024 * 1024;
  private static KubernetesClient admin;
  private static String ns;

  @TempDir Path root;
  @TempDir Path cache;

  @BeforeAll
  static void setUp(KubernetesClient kube, TestNamespace namespace) {
    admin = kube;
    ns = namespace.name();
    kube.configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .endMetadata()
                .withData(Map.of("color", "teal"))
                .build())
        .create();
    kube.secrets()
        .inNamespace(ns)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("credentials")
                .endMetadata()
                .withStringData(Map.of("password", "hunter2"))
                .build())
        .create();
    kube.serviceAccounts()
        .inNamespace(ns)
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName("reader").endMetadata().build())
        .create();
    kube.rbac()
        .roles()
        .inNamespace(ns)
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("configmap-reader")
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("configmaps")
                .withVerbs("get", "list")
                .endRule()
                .build())
        .create();
    kube.rbac()
        .roleBindings()
        .inNamespace(ns)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("configmap-reader")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "configmap-reader")
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName("reader")
                .withNamespace(ns)
                .endSubject()
                .build())
        .create();
  }

  private KubernetesClient reader() {
    return new KubernetesClientBuilder()
        .withConfig(
            new ConfigBuilder(admin.getConfiguration())
                .withImpersonateUsername("system:serviceaccount:" + ns + ":reader")
                .withNamespace(ns)
                .build())
        .build();
  }

  private ChartRenderer renderer() throws IOException {
    return new ChartRenderer(
        new ChartWorkerSettings(
            root.toRealPath(),
            cache.resolve("worker"),
            true,
            true,
            512 * MIB,
            Duration.ofSeconds(60),
            64 * MIB,
            1,
            Duration.ZERO,
            AnswerRoom.UNBOUNDED));
  }

  private void chart(String name, String template) throws IOException {
    Path chart = Files.createDirectories(root.resolve(name).resolve("templates"));
    Files.writeString(
        root.resolve(name).resolve("Chart.yaml"),
        "apiVersion: v2\nname: " + name + "\nversion: 0.1.0\n");
    Files.writeString(chart.resolve("lookup.yaml"), template);
  }

  @Test
  void aLookupReadsTheLiveObjectWithTheCallersIdentity() throws IOException {
    chart(
        "copy",
        """
        {{- $settings := lookup "v1" "ConfigMap" .Release.Namespace "settings" }}
        {{- $absent := lookup "v1" "ConfigMap" .Release.Namespace "absent" }}
        {{- $all := lookup "v1" "ConfigMap" .Release.Namespace "" }}
        {{- $nowhere := lookup "v1" "ConfigMap" "" "settings" }}
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: copy
        data:
          color: {{ dig "data" "color" "" $settings | quote }}
          absent: {{ empty $absent | quote }}
          nowhere: {{ empty $nowhere | quote }}
          listed: {{ gt (len (default (list) $all.items)) 0 | quote }}
        """);
    chart(
        "secret",
        """
        {{- $secret := lookup "v1" "Secret" .Release.Namespace "credentials" }}
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: leaked
        data:
          password: {{ $secret.data.password | default "none" | quote }}
        """);
    try (KubernetesClient reader = reader();
        ChartRenderer renderer = renderer()) {
      KubernetesChartLookups lookups = new KubernetesChartLookups(reader);
      ChartRender copy =
          renderer.render(ChartRenderRequest.of(root, "copy", "r", ns).withLookups(lookups));
      assertTrue(copy.manifest().contains("color: \"teal\""), copy.manifest());
      assertTrue(copy.manifest().contains("absent: \"true\""), copy.manifest());
      // a namespaced kind named without a namespace is not found, as Helm asks for it (the
      // client's own namespace, where it is, is not asked)
      assertTrue(copy.manifest().contains("nowhere: \"true\""), copy.manifest());
      assertTrue(copy.manifest().contains("listed: \"true\""), copy.manifest());

      ChartRenderException forbidden =
          assertThrows(
              ChartRenderException.class,
              () ->
                  renderer.render(
                      ChartRenderRequest.of(root, "secret", "r", ns).withLookups(lookups)));
      assertEquals(ChartRenderException.Stage.RENDER, forbidden.stage());
      assertTrue(
          forbidden
              .getMessage()
              .contains("lookup of v1 Secret '" + ns + "/credentials' is forbidden"),
          forbidden.getMessage());
      assertTrue(forbidden.getMessage().contains("secret/templates/lookup.yaml"));
      assertFalse(forbidden.getMessage().contains("hunter2"));

      // without lookups, as helm template: nothing is read
      ChartRender offline = renderer.render(ChartRenderRequest.of(root, "copy", "r", ns));
      assertTrue(offline.manifest().contains("absent: \"true\""), offline.manifest());
      assertFalse(offline.manifest().contains("teal"), offline.manifest());
      assertTrue(offline.manifest().contains("listed: \"false\""), offline.manifest());
    }
  }
}
