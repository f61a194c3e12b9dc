package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.source.helm.ChartPushes;
import dev.capstan.source.helm.IndexServer;
import dev.capstan.source.helm.TestCharts;
import dev.capstan.testing.OciRegistry;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HelmCharts against a real Helm repository (an HTTP server started here, serving an index and
 * packaged charts) and a real Git server. What a user checks is the status: Ready with the packaged
 * chart stored under its version; a new version in the index picked up; a chart directory of a Git
 * commit packaged with Flux's {@code +<short revision>} version and its values files merged; each
 * bad input named with its reason while the last good artifact stays.
 */
class HelmChartIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(90);

  private final Map<String, byte[]> versions = new LinkedHashMap<>();

  @Test
  void aChartOfARepositoryIsStoredANewVersionPickedUpAndBadChartsRefusedKeepingTheLastGood()
      throws IOException {
    try (IndexServer served = IndexServer.http()) {
      publish(served, "1.0.0", TestCharts.chart("podinfo", "1.0.0").tgz());
      helmRepository("charts", "  url: " + served.url() + "\n  interval: 1s\n");
      helmChart(
          "podinfo",
          "  chart: podinfo\n  sourceRef: {kind: HelmRepository, name: charts}\n"
              + "  interval: 10m\n");

      awaitCondition("podinfo", "Ready", isTrue());
      HelmChart first = helmChart("podinfo");
      assertEquals("1.0.0", first.getStatus().artifact().revision());
      assertEquals("podinfo", first.getStatus().observedChartName());
      assertEquals(
          helmRepository("charts").getStatus().artifact().revision(),
          first.getStatus().observedSourceArtifactRevision());
      assertEquals("*", first.getSpec().version(), "the CRD's default");
      assertTrue(
          Files.isRegularFile(Path.of(first.getStatus().artifact().path(), "podinfo-1.0.0.tgz")));

      publish(served, "1.1.0", TestCharts.chart("podinfo", "1.1.0").tgz());
      Artifact good = awaitRevision("podinfo", "1.1.0");

      byte[] whole = TestCharts.chart("podinfo", "1.2.0").tgz();
      refused(served, Arrays.copyOf(whole, whole.length / 2), "is truncated", good);
      refused(
          served,
          TestCharts.chart("podinfo", "1.2.0").file("podinfo/../../escape", "x").tgz(),
          "holds a path leaving the chart ('podinfo/../../escape')",
          good);
      refused(
          served,
          TestCharts.chart("podinfo", "1.2.0").symlink("podinfo/templates/x", "/etc").tgz(),
          "holds a link ('podinfo/templates/x')",
          good);
      refused(
          served,
          TestCharts.chart("podinfo", "1.2.0").file("podinfo/Chart.yaml", "name: podinfo\n").tgz(),
          "has no chart version",
          good);
      byte[] oversized = new byte[10 * 1024 * 1024 + 1];
      new Random(7).nextBytes(oversized);
      refused(served, oversized, "larger than 10485760 bytes (the bound of a chart)", good);

      helmChart(
          "missing",
          "  chart: nginx\n  sourceRef: {kind: HelmRepository, name: charts}\n  interval: 10m\n");
      Condition stalled = awaitCondition("missing", "Stalled", isTrue());
      assertEquals("InvalidChartReference", stalled.getReason());
      assertTrue(
          stalled.getMessage().startsWith("no chart version of 'nginx' matches '*'"),
          stalled.getMessage());
    }
  }

  @Test
  void aChartDirectoryOfAGitCommitIsPackagedWithItsRevisionAndItsValuesFilesMerged()
      throws IOException {
    Map<String, String> files = new HashMap<>();
    files.put("charts/app/Chart.yaml", TestCharts.chartYaml("app", "0.1.0"));
    files.put("charts/app/values.yaml", "replicas: 1\nimage:\n  tag: stable\n");
    files.put("charts/app/values-prod.yaml", "replicas: 3\n");
    files.put("charts/app/templates/cm.yaml", "kind: ConfigMap\n");
    files.put("charts/app/.helmignore", "*.md\n");
    files.put("charts/app/NOTES.md", "left out\n");
    String commit = git.commit(files);
    engine.gitRepository("repo", git.url());
    helmChart(
        "app",
        "  chart: ./charts/app\n  sourceRef: {kind: GitRepository, name: repo}\n"
            + "  interval: 10m\n  reconcileStrategy: Revision\n"
            + "  valuesFiles: [charts/app/values.yaml, charts/app/values-prod.yaml]\n");

    String expected = "0.1.0+" + shortRevision(commit) + ".1";
    Artifact built = awaitRevision("app", expected);
    Map<String, String> packaged = unpack(Path.of(built.path(), "app-" + expected + ".tgz"));
    assertEquals("image:\n  tag: stable\nreplicas: 3\n", packaged.get("app/values.yaml"));
    assertTrue(packaged.get("app/Chart.yaml").contains("version: " + expected));
    assertTrue(!packaged.containsKey("app/NOTES.md"), packaged.keySet().toString());
    assertEquals(commit, helmChart("app").getStatus().observedSourceArtifactRevision());

    String next = git.commit(Map.of("charts/app/templates/cm.yaml", "kind: ConfigMap # 2\n"));
    requestReconcile(GitRepository.class, "repo");
    Artifact rebuilt = awaitRevision("app", "0.1.0+" + shortRevision(next) + ".1");

    client()
        .resources(HelmChart.class)
        .inNamespace(ns())
        .withName("app")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"valuesFiles\":[\"charts/app/values.yaml\","
                + "\"charts/app/values-missing.yaml\"]}}");
    Condition stalled = awaitCondition("app", "Stalled", isTrue());
    assertEquals("ValuesFilesError", stalled.getReason());
    assertEquals(
        "no values file found at path 'charts/app/values-missing.yaml'", stalled.getMessage());
    assertEquals(rebuilt, helmChart("app").getStatus().artifact());
  }

  @Test
  void aDependencyOnARepositoryIsResolvedThroughTheHelmRepositoryWithItsUrl() throws IOException {
    try (IndexServer served = IndexServer.http()) {
      publish(served, "1.0.0", TestCharts.chart("podinfo", "1.0.0").tgz());
      helmRepository("deps", "  url: " + served.url() + "\n  interval: 1m\n");
      engine.awaitSourceCondition(HelmRepository.class, "deps", "Ready", WAIT, isTrue());
      git.commit(
          Map.of(
              "umbrella/Chart.yaml",
              TestCharts.chartYaml("umbrella", "2.0.0")
                  + "dependencies:\n- name: podinfo\n  version: 1.x\n  repository: "
                  + served.url()
                  + "\n",
              "umbrella/values.yaml",
              "podinfo:\n  replicas: 2\n"));
      engine.gitRepository("umbrella-repo", git.url());
      helmChart(
          "umbrella",
          "  chart: umbrella\n  sourceRef: {kind: GitRepository, name: umbrella-repo}\n"
              + "  interval: 10m\n");

      Artifact built = awaitRevision("umbrella", "2.0.0");
      Map<String, String> packaged = unpack(Path.of(built.path(), "umbrella-2.0.0.tgz"));
      assertTrue(
          packaged.containsKey("umbrella/charts/podinfo-1.0.0.tgz"), packaged.keySet().toString());
    }
  }

  @Test
  void aChartOfAnOciRegistryIsPulledAtTheHighestVersionInItsRangeWithItsValuesFilesMerged(
      @TempDir Path work) throws Exception {
    try (OciRegistry registry =
        OciRegistry.start(work.resolve("registry"), OciRegistry.Options.plain())) {
      ChartPushes pushes = new ChartPushes(registry, work, List.of("--plain-http"));
      for (String version : List.of("1.0.0", "1.4.0", "2.0.0")) {
        pushes.helmPush(pushes.pack(pushes.chart("demo", version, 0)), "charts");
      }
      helmRepository(
          "registry", "  type: oci\n  insecure: true\n  url: " + registry.url("charts") + "\n");
      helmChart(
          "demo",
          "  chart: demo\n  version: '^1.0.0'\n"
              + "  sourceRef: {kind: HelmRepository, name: registry}\n  interval: 10m\n");

      Artifact pulled = awaitRevision("demo", "1.4.0");
      assertTrue(Files.isRegularFile(Path.of(pulled.path(), "demo-1.4.0.tgz")), pulled.path());
      assertEquals("demo", helmChart("demo").getStatus().observedChartName());

      helmChart(
          "signed",
          "  chart: demo\n  sourceRef: {kind: HelmRepository, name: registry}\n"
              + "  interval: 10m\n  verify: {provider: cosign}\n");
      Condition keyless = awaitCondition("signed", "Stalled", isTrue());
      assertTrue(
          keyless.getMessage().contains("spec.verify needs secretRef"), keyless.getMessage());

      valuesFilesOfAnOciChart(pushes);
    }
  }

  /** As for a chart of an index: merged into values.yaml, the generation in the revision. */
  private void valuesFilesOfAnOciChart(ChartPushes pushes) throws Exception {
    Path dir = pushes.chart("valued", "0.2.0", 0);
    Files.writeString(dir.resolve("values-prod.yaml"), "replicas: 3\n");
    pushes.helmPush(pushes.pack(dir), "charts");
    helmChart(
        "valued",
        "  chart: valued\n  sourceRef: {kind: HelmRepository, name: registry}\n"
            + "  interval: 10m\n  valuesFiles: [values.yaml, values-prod.yaml]\n");

    Artifact merged = awaitRevision("valued", "0.2.0+1");
    Map<String, String> packaged = unpack(Path.of(merged.path(), "valued-0.2.0+1.tgz"));
    assertEquals("greeting: hello\nreplicas: 3\n", packaged.get("valued/values.yaml"));
    assertTrue(packaged.get("valued/Chart.yaml").contains("version: 0.2.0+1"));

    client()
        .resources(HelmChart.class)
        .inNamespace(ns())
        .withName("valued")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"valuesFiles\":[\"values.yaml\",\"values-missing.yaml\"]}}");
    Condition stalled = awaitCondition("valued", "Stalled", isTrue());
    assertEquals("ValuesFilesError", stalled.getReason());
    assertEquals("no values file found at path 'values-missing.yaml'", stalled.getMessage());
    assertEquals(merged, helmChart("valued").getStatus().artifact());
  }

  @Test
  void whatTheEngineCannotBuildIsRefusedByName() {
    helmChart("bucket", "  chart: app\n  sourceRef: {kind: Bucket, name: b}\n  interval: 10m\n");
    helmChart(
        "no-source",
        "  chart: podinfo\n  sourceRef: {kind: HelmRepository, name: absent}\n"
            + "  interval: 10m\n");

    assertEquals(
        "UnsupportedSourceKind", awaitCondition("bucket", "Stalled", isTrue()).getReason());
    Condition absent = awaitCondition("no-source", "Ready", isFalse());
    assertEquals("SourceUnavailable", absent.getReason());
  }

  private void publish(IndexServer served, String version, byte[] tgz) {
    versions.put(version, tgz);
    served.serveFile("podinfo-" + version + ".tgz", tgz);
    served.serve(TestCharts.index("podinfo", versions).getBytes(StandardCharsets.UTF_8));
  }

  /** Version 1.2.0 published as {@code tgz}: refused by name, the last good artifact kept. */
  private void refused(IndexServer served, byte[] tgz, String expected, Artifact good) {
    publish(served, "1.2.0", tgz);
    Condition ready =
        awaitCondition("podinfo", "Ready", c -> isFalse(c) && c.getMessage().contains(expected));
    assertEquals("ChartPullError", ready.getReason(), ready.getMessage());
    assertEquals(good, helmChart("podinfo").getStatus().artifact());
    assertTrue(Files.isDirectory(Path.of(good.path())));
  }

  private Artifact awaitRevision(String name, String revision) {
    EngineFixture.eventually(WAIT)
        .until(
            () -> {
              HelmChart chart = helmChart(name);
              return chart.getStatus() != null
                  && chart.getStatus().artifact() != null
                  && revision.equals(chart.getStatus().artifact().revision());
            });
    Artifact artifact = helmChart(name).getStatus().artifact();
    assertNotNull(artifact);
    return artifact;
  }

  private static String shortRevision(String revision) {
    return revision.substring(revision.indexOf("sha1:") + 5).substring(0, 12);
  }

  private static Map<String, String> unpack(Path tgz) throws IOException {
    Map<String, String> files = new HashMap<>();
    try (InputStream in = Files.newInputStream(tgz);
        TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(in))) {
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        files.put(entry.getName(), new String(tar.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return files;
  }

  private static void requestReconcile(Class<GitRepository> kind, String name) {
    client()
        .resources(kind)
        .inNamespace(ns())
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\""
                + ReconcileRequest.ANNOTATION
                + "\":\""
                + System.nanoTime()
                + "\"}}}");
  }

  private static Predicate<Condition> isTrue() {
    return EngineTestBase::isTrue;
  }

  private static Predicate<Condition> isFalse() {
    return EngineTestBase::isFalse;
  }

  private static KubernetesClient client() {
    return engine.client;
  }

  private static void helmRepository(String name, String spec) {
    create(HelmRepository.class, "HelmRepository", name, spec);
  }

  private static void helmChart(String name, String spec) {
    create(HelmChart.class, "HelmChart", name, spec);
  }

  private static <T extends HasMetadata> void create(
      Class<T> type, String kind, String name, String spec) {
    String yaml =
        """
        apiVersion: source.capstan.dev/v1
        kind: %s
        metadata: {name: %s, namespace: %s, labels: {%s: %s}}
        spec:
        %s
        """
            .formatted(
                kind, name, ns(), EngineFixture.SHARD_LABEL, engine.shard, spec.stripTrailing());
    T object =
        client()
            .resources(type)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    client().resource(object).create();
  }

  private static HelmRepository helmRepository(String name) {
    return client().resources(HelmRepository.class).inNamespace(ns()).withName(name).get();
  }

  private static HelmChart helmChart(String name) {
    return client().resources(HelmChart.class).inNamespace(ns()).withName(name).get();
  }

  private static Condition awaitCondition(String name, String type, Predicate<Condition> test) {
    return engine.awaitSourceCondition(HelmChart.class, name, type, WAIT, test);
  }
}
