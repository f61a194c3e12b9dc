package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.ClusterAccess;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HelmRelease of podinfo's real chart (from the chart corpus, packaged and served by a Helm
 * repository over HTTP started here) installed, upgraded and uninstalled by the engine, as a user
 * checks it: the status says Ready and Healthy, and the real {@code helm} (the version the chart
 * worker pins) lists the release and its history from Capstan's release records.
 */
class HelmReleaseIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(120);

  private final Map<String, byte[]> versions = new LinkedHashMap<>();

  @Test
  void aReleaseIsInstalledUpgradedInPlacePrunedAndUninstalledAsHelmSeesIt(
      ClusterAccess cluster, @TempDir Path home) throws Exception {
    Path chart = Path.of(script("charts")).resolve("podinfo");
    Helm helm = new Helm(Path.of(script("helm")), home, cluster.kubeconfig());
    try (IndexServer served = IndexServer.http()) {
      publish(served, "1.0.0", tgz(chart, "1.0.0", List.of()));
      create(
          "source.capstan.dev/v1",
          "HelmRepository",
          "charts",
          "  url: " + served.url() + "\n  interval: 1s\n");
      createPodinfoRelease();

      awaitRelease(c -> isTrue(c) && c.getReason().equals("InstallSucceeded"));
      awaitHealthy();
      assertEquals(List.of("1 deployed"), helm.history());
      assertEquals(List.of("podinfo 1 deployed podinfo-1.0.0"), helm.list());
      Deployment installed = deployment();
      assertEquals(1, installed.getSpec().getReplicas());
      assertEquals("Helm", installed.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
      assertEquals(
          "podinfo", service().getMetadata().getAnnotations().get("meta.helm.sh/release-name"));

      patchSpec("{\"values\":{\"replicaCount\":2}}");
      awaitRelease(c -> isTrue(c) && c.getReason().equals("UpgradeSucceeded"));
      awaitHealthy();
      assertEquals(List.of("1 superseded", "2 deployed"), helm.history());
      Deployment upgraded = deployment();
      assertEquals(2, upgraded.getSpec().getReplicas());
      assertEquals(installed.getMetadata().getUid(), upgraded.getMetadata().getUid(), "in place");
      assertEquals(2, release().getStatus().history().size());

      // a chart version without the Service: the Service is pruned, the Deployment stays
      publish(served, "1.1.0", tgz(chart, "1.1.0", List.of("templates/service.yaml")));
      awaitRelease(
          c -> isTrue(c) && c.getMessage().contains("podinfo.v3 with chart podinfo@1.1.0"));
      EngineFixture.eventually(WAIT).until(() -> service() == null);
      assertEquals(installed.getMetadata().getUid(), deployment().getMetadata().getUid());
      assertEquals(List.of("podinfo 3 deployed podinfo-1.1.0"), helm.list());

      client().resource(release()).delete();
      EngineFixture.eventually(WAIT).until(() -> release() == null);
      assertNull(deployment());
      assertEquals(List.of(), helm.list());
      // helm uninstall's default: the release records go too
      assertEquals(
          List.of(),
          client().secrets().inNamespace(ns()).withLabel("owner", "helm").list().getItems());
    }
  }

  private void publish(IndexServer served, String version, byte[] tgz) {
    versions.put(version, tgz);
    served.serveFile("podinfo-" + version + ".tgz", tgz);
    served.serve(TestCharts.index("podinfo", versions).getBytes(StandardCharsets.UTF_8));
  }

  /** The chart directory packaged as {@code version}, without the files {@code left}. */
  static byte[] tgz(Path chart, String version, List<String> left) throws IOException {
    return tgz(chart, version, left, Map.of());
  }

  /**
   * The chart directory packaged as {@code version}, without the files {@code left} and with the
   * files {@code added} (by path in the chart, their text).
   */
  static byte[] tgz(Path chart, String version, List<String> left, Map<String, String> added)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes));
        Stream<Path> files = Files.walk(chart)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String relative = chart.relativize(file).toString();
        if (left.contains(relative)) {
          continue;
        }
        byte[] content = Files.readAllBytes(file);
        if (relative.equals("Chart.yaml")) {
          content =
              new String(content, StandardCharsets.UTF_8)
                  .replaceFirst("(?m)^version:.*$", "version: " + version)
                  .getBytes(StandardCharsets.UTF_8);
        }
        put(tar, relative, content);
      }
      for (Map.Entry<String, String> file : new TreeMap<>(added).entrySet()) {
        put(tar, file.getKey(), file.getValue().getBytes(StandardCharsets.UTF_8));
      }
    }
    return bytes.toByteArray();
  }

  private static void put(TarArchiveOutputStream tar, String relative, byte[] content)
      throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry("podinfo/" + relative);
    entry.setSize(content.length);
    tar.putArchiveEntry(entry);
    tar.write(content);
    tar.closeArchiveEntry();
  }

  private void awaitRelease(Predicate<Condition> ready) {
    EngineFixture.eventually(WAIT)
        .untilAsserted(
            () -> {
              HelmRelease release = release();
              Condition condition =
                  HelmReleaseStatuses.condition(release.getStatus(), "Ready").orElse(null);
              assertTrue(
                  condition != null && ready.test(condition),
                  () -> "HelmRelease has status " + release.getStatus());
            });
  }

  private void awaitHealthy() {
    EngineFixture.eventually(WAIT)
        .untilAsserted(
            () ->
                assertTrue(
                    HelmReleaseStatuses.condition(release().getStatus(), "Healthy")
                        .filter(EngineTestBase::isTrue)
                        .isPresent(),
                    () -> "HelmRelease has status " + release().getStatus()));
  }

  static void patchSpec(String specJson) {
    patchSpecOf("podinfo", specJson);
  }

  /** HelmRelease {@code name}'s spec with the fields of {@code specJson} set over it. */
  static void patchSpecOf(String name, String specJson) {
    client()
        .resources(HelmRelease.class)
        .inNamespace(ns())
        .withName(name)
        .edit(
            r -> {
              try {
                ObjectMapper mapper = new ObjectMapper();
                ObjectNode spec = mapper.valueToTree(r.getSpec());
                spec.setAll((ObjectNode) mapper.readTree(specJson));
                r.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
                return r;
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
  }

  /**
   * The HelmRelease {@code podinfo} of the chart repository {@code charts}, one replica: the
   * release the install, adoption and target tests make.
   */
  static void createPodinfoRelease() {
    create(
        "helm.capstan.dev/v2",
        "HelmRelease",
        "podinfo",
        """
          interval: 10m
          chart:
            metadata:
              labels: {%s: %s}
            spec:
              chart: podinfo
              interval: 1s
              sourceRef: {kind: HelmRepository, name: charts}
          values:
            replicaCount: 1
        """
            .formatted(EngineFixture.SHARD_LABEL, engine.shard));
  }

  static void create(String apiVersion, String kind, String name, String spec) {
    String yaml =
        """
        apiVersion: %s
        kind: %s
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
        %s
        """
            .formatted(
                apiVersion,
                kind,
                name,
                ns(),
                EngineFixture.SHARD_LABEL,
                engine.shard,
                spec.stripTrailing());
    HasMetadata object =
        client()
            .resource(
                client()
                    .getKubernetesSerialization()
                    .unmarshal(
                        new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)),
                        HasMetadata.class))
            .create();
    assertEquals(name, object.getMetadata().getName());
  }

  private static HelmRelease release() {
    return client().resources(HelmRelease.class).inNamespace(ns()).withName("podinfo").get();
  }

  private static Deployment deployment() {
    return client().apps().deployments().inNamespace(ns()).withName("podinfo").get();
  }

  private static Service service() {
    return client().services().inNamespace(ns()).withName("podinfo").get();
  }

  private static KubernetesClient client() {
    return engine.client;
  }

  /** Runs {@code kustomize-worker/build WHAT}; its last line of output names what it made. */
  static String script(String what) throws Exception {
    Process process =
        new ProcessBuilder(RepoRoot.find().resolve("kustomize-worker/build").toString(), what)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.MINUTES), "build " + what + " took too long");
    assertEquals(0, process.exitValue(), "kustomize-worker/build " + what + " failed");
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1].strip();
  }

  /** The real {@code helm} with its own home, against the test cluster, in this namespace. */
  record Helm(Path binary, Path home, Path kubeconfig) {

    /** {@code helm history}: {@code "<revision> <status>"}, oldest first. */
    List<String> history() throws Exception {
      return history("podinfo");
    }

    /** {@code helm history} of {@code release}. */
    List<String> history(String release) throws Exception {
      List<String> seen = new ArrayList<>();
      for (JsonNode entry : json("history", release)) {
        seen.add(entry.path("revision").asText() + " " + entry.path("status").asText());
      }
      return seen;
    }

    /** {@code helm list}: {@code "<name> <revision> <status> <chart>"}. */
    List<String> list() throws Exception {
      return list(ns());
    }

    /** {@code helm list} in {@code namespace}. */
    List<String> list(String namespace) throws Exception {
      List<String> seen = new ArrayList<>();
      for (JsonNode entry : jsonIn(namespace, "list")) {
        seen.add(
            entry.path("name").asText()
                + " "
                + entry.path("revision").asText()
                + " "
                + entry.path("status").asText()
                + " "
                + entry.path("chart").asText());
      }
      return seen;
    }

    JsonNode json(String... args) throws Exception {
      return jsonIn(ns(), args);
    }

    /** {@code helm <args> -o json} in {@code namespace}. */
    JsonNode jsonIn(String namespace, String... args) throws Exception {
      List<String> command = new ArrayList<>(List.of(binary.toString()));
      command.addAll(List.of(args));
      command.addAll(List.of("-n", namespace, "-o", "json"));
      ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
      builder
          .environment()
          .putAll(
              Map.of(
                  "HOME", home.toString(),
                  "HELM_CONFIG_HOME", home.resolve("config").toString(),
                  "HELM_CACHE_HOME", home.resolve("cache").toString(),
                  "HELM_DATA_HOME", home.resolve("data").toString(),
                  "KUBECONFIG", kubeconfig.toString()));
      Path errors = Files.createTempFile(home, "helm", ".err");
      builder.redirectError(errors.toFile());
      Process process = builder.start();
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(
          0, process.waitFor(), String.join(" ", command) + ": " + Files.readString(errors));
      return new ObjectMapper().readTree(out);
    }
  }
}
