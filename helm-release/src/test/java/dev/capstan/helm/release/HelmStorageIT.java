package dev.capstan.helm.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretWriter;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Release records both ways with the real {@code helm}: what ReleaseStorage writes is listed,
 * shown, read and rolled back by {@code helm}, and what {@code helm install} writes is read here; a
 * record changed by hand is refused and left as it is.
 */
@ExtendWith(KubernetesCluster.class)
class HelmStorageIT {
  private final ObjectMapper json = new ObjectMapper();
  private ReleaseStorage storage;
  private HelmCli helm;
  private String ns;

  @BeforeEach
  void setUp(
      KubernetesClient client, TestNamespace namespace, ClusterAccess access, @TempDir Path home)
      throws Exception {
    storage =
        new ReleaseStorage(new SecretReader(client), new SecretWriter(client), Clock.systemUTC());
    helm = HelmCli.build(home, access.kubeconfig());
    ns = namespace.name();
  }

  @Test
  void aReleaseWrittenHereIsListedShownAndReadByHelm() throws Exception {
    storage.create(ns, release("web", 1, "hi", ReleaseStatus.DEPLOYED));
    upgrade("web", "bye");

    JsonNode listed = helm.json("list", "-n", ns).get(0);
    assertEquals("web", listed.path("name").asText());
    assertEquals("2", listed.path("revision").asText());
    assertEquals("deployed", listed.path("status").asText());
    assertEquals("demo-1.2.3", listed.path("chart").asText());
    assertEquals("4.5", listed.path("app_version").asText());
    JsonNode history = helm.json("history", "web", "-n", ns);
    assertEquals(2, history.size());
    assertEquals("superseded", history.get(0).path("status").asText());
    assertEquals("Install complete", history.get(0).path("description").asText());
    assertEquals("deployed", history.get(1).path("status").asText());
    assertEquals("Upgrade complete", history.get(1).path("description").asText());
    assertEquals("bye", helm.json("get", "values", "web", "-n", ns).path("greeting").asText());
    assertEquals(manifest("web", "bye"), helm.run("get", "manifest", "web", "-n", ns).strip());
  }

  @Test
  void helmRollsBackAndUpgradesAReleaseWrittenHere() throws Exception {
    storage.create(ns, release("back", 1, "first", ReleaseStatus.DEPLOYED));
    upgrade("back", "second");

    helm.run("rollback", "back", "1", "-n", ns);

    ReleaseHistory history = storage.history(ns, "back");
    ReleaseRecord latest = history.latest().orElseThrow();
    assertEquals(3, latest.release().version());
    assertEquals(ReleaseStatus.DEPLOYED, latest.release().status());
    assertEquals("first", latest.release().config().path("greeting").asText());
    assertEquals(ReleaseStatus.SUPERSEDED, history.records().get(1).release().status());
    helm.run("upgrade", "back", helm.chart().toString(), "-n", ns, "--set", "greeting=fourth");
    assertEquals(
        "fourth",
        storage
            .history(ns, "back")
            .lastDeployed()
            .orElseThrow()
            .release()
            .config()
            .path("greeting")
            .asText());
  }

  @Test
  void aReleaseHelmInstalledIsReadHere() throws Exception {
    helm.run("install", "made", helm.chart().toString(), "-n", ns, "--set", "greeting=hey");

    ReleaseHistory history = storage.history(ns, "made");

    assertEquals(1, history.records().size());
    Release release = history.lastDeployed().orElseThrow().release();
    assertEquals(1, release.version());
    assertEquals(ns, release.namespace());
    assertEquals("hey", release.config().path("greeting").asText());
    assertEquals("demo", release.chart().name());
    assertEquals("hello", release.chart().values().path("greeting").asText());
    assertTrue(release.manifest().contains("name: made-cm"), release.manifest());
    assertEquals(2, history.nextVersion());
  }

  @Test
  void prunesToMaxHistoryKeepingTheDeployedRelease() throws Exception {
    storage.create(ns, release("many", 1, "v1", ReleaseStatus.DEPLOYED));
    for (int version = 2; version <= 4; version++) {
      upgrade("many", "v" + version);
    }

    List<ReleaseRecord> deleted = storage.prune(storage.history(ns, "many"), 2);

    assertEquals(List.of(1, 2), deleted.stream().map(r -> r.release().version()).toList());
    JsonNode history = helm.json("history", "many", "-n", ns);
    assertEquals(2, history.size());
    assertEquals(3, history.get(0).path("revision").asInt());
    assertEquals("deployed", history.get(1).path("status").asText());
  }

  @Test
  void aTamperedRecordIsRefusedByNameAndNeverOverwritten(KubernetesClient client) throws Exception {
    helm.run("install", "forged", helm.chart().toString(), "-n", ns);
    String name = ReleaseRecord.secretName("forged", 1);
    Secret secret = client.secrets().inNamespace(ns).withName(name).get();
    secret.getMetadata().getLabels().put("status", "superseded");
    Secret forged = client.secrets().resource(secret).update();

    ReleaseRecordException refused =
        assertThrows(ReleaseRecordException.class, () -> storage.history(ns, "forged"));
    assertEquals(ReleaseRecordException.Reason.TAMPERED, refused.reason());
    assertTrue(
        refused.getMessage().startsWith("Secret '" + ns + "/" + name + "'"), refused.getMessage());
    ReleaseRecordException exists =
        assertThrows(
            ReleaseRecordException.class,
            () -> storage.create(ns, release("forged", 1, "other", ReleaseStatus.DEPLOYED)));
    assertEquals(ReleaseRecordException.Reason.CONFLICT, exists.reason());
    Secret after = client.secrets().inNamespace(ns).withName(name).get();
    assertEquals(
        forged.getMetadata().getResourceVersion(), after.getMetadata().getResourceVersion());
    assertEquals(forged.getData(), after.getData());
  }

  @Test
  void aRecordChangedSinceItWasReadIsNotOverwritten() throws Exception {
    storage.create(ns, release("stale", 1, "one", ReleaseStatus.DEPLOYED));
    ReleaseRecord read = storage.history(ns, "stale").latest().orElseThrow();
    storage.update(read, read.release().withManifest(manifest("stale", "changed") + "\n"));

    ReleaseRecordException stale =
        assertThrows(ReleaseRecordException.class, () -> storage.supersede(read));

    assertEquals(ReleaseRecordException.Reason.CONFLICT, stale.reason());
    Release kept = storage.history(ns, "stale").latest().orElseThrow().release();
    assertEquals(ReleaseStatus.DEPLOYED, kept.status());
    assertTrue(kept.manifest().contains("changed"), kept.manifest());
  }

  /** A new deployed version of {@code name} with {@code greeting}, the last one superseded. */
  private void upgrade(String name, String greeting) throws Exception {
    ReleaseHistory history = storage.history(ns, name);
    ReleaseRecord deployed = history.lastDeployed().orElseThrow();
    Release next = release(name, history.nextVersion(), greeting, ReleaseStatus.DEPLOYED);
    storage.create(
        ns,
        next.withInfo(
            next.info()
                .withFirstDeployed(deployed.release().info().firstDeployed())
                .withDescription("Upgrade complete")));
    storage.supersede(deployed);
  }

  private Release release(String name, int version, String greeting, ReleaseStatus status) {
    String now = HelmTime.format(Instant.now());
    ObjectNode metadata = json.createObjectNode();
    metadata.put("name", "demo").put("version", "1.2.3").put("apiVersion", "v2");
    metadata.put("appVersion", "4.5");
    ObjectNode values = json.createObjectNode().put("greeting", "hello");
    ReleaseChart chart =
        ReleaseChart.of(
            metadata,
            List.of(
                ChartFile.of(
                    "templates/cm.yaml",
                    HelmCli.CONFIG_MAP_TEMPLATE.getBytes(StandardCharsets.UTF_8))),
            values);
    return ReleaseBuilder.builder()
        .name(name)
        .namespace(ns)
        .version(version)
        .info(
            ReleaseInfoBuilder.builder()
                .firstDeployed(now)
                .lastDeployed(now)
                .description("Install complete")
                .status(status)
                .build())
        .chart(chart)
        .config(json.createObjectNode().put("greeting", greeting))
        .manifest(manifest(name, greeting) + "\n")
        .applyMethod(Release.SERVER_SIDE_APPLY)
        .build();
  }

  private String manifest(String name, String greeting) {
    return "---\n# Source: demo/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n"
        + "  name: "
        + name
        + "-cm\n  namespace: "
        + ns
        + "\ndata:\n  greeting: \""
        + greeting
        + "\"";
  }
}
