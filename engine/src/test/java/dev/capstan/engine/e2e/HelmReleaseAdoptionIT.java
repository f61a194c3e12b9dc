package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A release the real {@code helm install} made, handed to a HelmRelease of the same name: it is
 * upgraded in place as its next version (every object's uid unchanged, {@code helm history} going
 * on), Helm's field manager gives way to Capstan's, what the charts drop is pruned except what
 * {@code helm.sh/resource-policy: keep} keeps, and with {@code disableTakeOwnership} an object of
 * another release is refused by name and left as it was.
 */
class HelmReleaseAdoptionIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(120);

  private static final String DROPPED = "podinfo-dropped";
  private static final String KEPT = "podinfo-kept";
  private static final String LATER = "podinfo-later";

  private final Map<String, byte[]> versions = new LinkedHashMap<>();

  @Test
  void aReleaseHelmInstalledIsContinuedInPlaceAndItsFieldsAndPruningTakenOver(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    Path chart = Path.of(HelmReleaseIT.script("charts")).resolve("podinfo");
    HelmReleaseIT.Helm helm = HelmReleases.helm(cluster, home);
    Path installed = home.resolve("podinfo-1.0.0.tgz");
    Files.write(
        installed,
        HelmReleaseIT.tgz(
            chart,
            "1.0.0",
            List.of(),
            Map.of(
                "templates/dropped.yaml", configMap(DROPPED, ""),
                "templates/kept.yaml",
                    configMap(KEPT, "  annotations: {helm.sh/resource-policy: keep}\n"),
                "templates/later.yaml", configMap(LATER, ""))));
    helm.json(
        "install", "podinfo", installed.toString(), "--set", "podAnnotations.adopted=by-helm");
    assertEquals(List.of("1 deployed"), helm.history());
    assertEquals("by-helm", podAnnotations().get("adopted"));
    assertTrue(managers(deployment()).stream().anyMatch(m -> m.startsWith("helm")));
    Map<String, String> uids = uids();

    try (IndexServer served = IndexServer.http()) {
      // 1.1.0 no longer has the dropped and the kept ConfigMaps
      publish(
          served,
          "1.1.0",
          HelmReleaseIT.tgz(
              chart, "1.1.0", List.of(), Map.of("templates/later.yaml", configMap(LATER, ""))));
      HelmReleaseIT.create(
          "source.capstan.dev/v1",
          "HelmRepository",
          "charts",
          "  url: " + served.url() + "\n  interval: 1s\n");
      HelmReleaseIT.createPodinfoRelease();

      HelmReleases.await(
          "podinfo",
          "Ready",
          c -> isTrue(c) && c.getMessage().contains("upgrade succeeded for release " + ns()));
      assertEquals(List.of("1 superseded", "2 deployed"), helm.history());
      assertEquals(List.of("podinfo 2 deployed podinfo-1.1.0"), helm.list());
      for (String kept : List.of("Deployment", "Service", "ConfigMap " + LATER)) {
        assertEquals(uids.get(kept), uids().get(kept), kept + " was not re-created");
      }
      for (HasMetadata object : List.of(deployment(), service(), configMapNamed(LATER))) {
        List<String> managers = managers(object);
        assertTrue(managers.contains("capstan"), object.getKind() + ": " + managers);
        assertFalse(
            managers.stream().anyMatch(m -> m.startsWith("helm")),
            object.getKind() + " is still managed by Helm: " + managers);
      }
      assertFalse(
          podAnnotations().containsKey("adopted"),
          "a field only Helm's values set is removed once Capstan owns it");
      EngineFixture.eventually(WAIT).until(() -> configMapNamed(DROPPED) == null);
      assertEquals(uids.get("ConfigMap " + KEPT), uids().get("ConfigMap " + KEPT), "kept");

      // once adopted, a chart version that drops an object prunes it as for any release
      publish(served, "1.2.0", HelmReleaseIT.tgz(chart, "1.2.0", List.of()));
      HelmReleases.await(
          "podinfo", "Ready", c -> isTrue(c) && c.getMessage().contains("podinfo@1.2.0"));
      EngineFixture.eventually(WAIT).until(() -> configMapNamed(LATER) == null);
      assertEquals(List.of("1 superseded", "2 superseded", "3 deployed"), helm.history());
      assertEquals(uids.get("Deployment"), uids().get("Deployment"));

      // an object another release owns is not taken without taking ownership
      client()
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName("shared")
                  .withNamespace(ns())
                  .withLabels(Map.of("app.kubernetes.io/managed-by", "Helm"))
                  .withAnnotations(
                      Map.of(
                          "meta.helm.sh/release-name",
                          "other",
                          "meta.helm.sh/release-namespace",
                          ns()))
                  .endMetadata()
                  .withData(Map.of("owner", "other"))
                  .build())
          .create();
      HelmReleaseIT.patchSpec("{\"upgrade\":{\"disableTakeOwnership\":true}}");
      publish(
          served,
          "1.3.0",
          HelmReleaseIT.tgz(
              chart, "1.3.0", List.of(), Map.of("templates/shared.yaml", configMap("shared", ""))));
      HelmReleases.await(
          "podinfo",
          "Ready",
          c ->
              "False".equals(c.getStatus())
                  && c.getMessage()
                      .contains(
                          "ConfigMap '"
                              + ns()
                              + "/shared' exists and cannot be taken into release '"
                              + ns()
                              + "/podinfo'"));
      ConfigMap shared = configMapNamed("shared");
      assertEquals("other", shared.getMetadata().getAnnotations().get("meta.helm.sh/release-name"));
      assertEquals(Map.of("owner", "other"), shared.getData());
      // the spec change alone releases nothing (as with Flux); the refused upgrade to 1.3.0
      // writes no record, failed or pending
      List<String> history = helm.history();
      assertTrue(history.get(history.size() - 1).endsWith(" deployed"), history.toString());
      assertTrue(history.stream().noneMatch(h -> h.endsWith(" failed")), history.toString());
      assertTrue(helm.list().get(0).endsWith(" podinfo-1.2.0"), helm.list().toString());
    }
  }

  private void publish(IndexServer served, String version, byte[] tgz) {
    versions.put(version, tgz);
    served.serveFile("podinfo-" + version + ".tgz", tgz);
    served.serve(TestCharts.index("podinfo", versions).getBytes(StandardCharsets.UTF_8));
  }

  /** A template of the ConfigMap {@code name}, with {@code metadata} lines of its own. */
  private static String configMap(String name, String metadata) {
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
        + name
        + "\n"
        + metadata
        + "data:\n  release: \"{{ .Release.Name }}\"\n";
  }

  /** The uid of each object of the release, by kind (and name for ConfigMaps). */
  private static Map<String, String> uids() {
    Map<String, String> uids = new LinkedHashMap<>();
    put(uids, "Deployment", deployment());
    put(uids, "Service", service());
    for (String name : List.of(DROPPED, KEPT, LATER)) {
      put(uids, "ConfigMap " + name, configMapNamed(name));
    }
    return uids;
  }

  private static void put(Map<String, String> uids, String key, HasMetadata object) {
    if (object != null) {
      uids.put(key, object.getMetadata().getUid());
    }
  }

  /** The field managers of the object's own fields (not of its status). */
  private static List<String> managers(HasMetadata object) {
    assertNotNull(object);
    return object.getMetadata().getManagedFields().stream()
        .filter(e -> e.getSubresource() == null || e.getSubresource().isEmpty())
        .map(ManagedFieldsEntry::getManager)
        .toList();
  }

  private static Map<String, String> podAnnotations() {
    Map<String, String> annotations =
        deployment().getSpec().getTemplate().getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }

  private static Deployment deployment() {
    return client().apps().deployments().inNamespace(ns()).withName("podinfo").get();
  }

  private static HasMetadata service() {
    return client().services().inNamespace(ns()).withName("podinfo").get();
  }

  private static ConfigMap configMapNamed(String name) {
    return client().configMaps().inNamespace(ns()).withName(name).get();
  }

  private static KubernetesClient client() {
    return engine.client;
  }
}
