package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.cluster.CliException;
import dev.capstan.testing.RepoRoot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The fidelity corpus: {@code capstan build chart} prints, byte for byte, what {@code helm
 * template} of the pinned Helm (built from its module by {@code kustomize-worker/build helm})
 * prints with the same options, for real projects' charts (fetched from the Go module proxy by
 * {@code kustomize-worker/build charts}, pinned there) and the worker's own test charts; its
 * failures carry Helm's message.
 */
class BuildChartFidelityIT {
  private static final Path REPO = RepoRoot.find();
  private static final Path TEST_CHARTS = REPO.resolve("kustomize-worker/go/testdata/charts");

  /**
   * What some charts of the corpus need to render at all, or to render the same twice: podinfo's
   * test hooks name their pods with randAlphaNum, external-dns' schema requires a policy, and
   * karpenter's templates a cluster name.
   */
  static final Map<String, List<String>> BASE =
      Map.of(
          "podinfo", List.of("--skip-tests"),
          "external-dns", List.of("--set", "policy=sync"),
          "karpenter", List.of("--set", "settings.clusterName=demo"));

  /** Options that turn on what some charts' defaults leave out. */
  static final Map<String, List<String>> OPTIONS = new LinkedHashMap<>();

  static {
    OPTIONS.put(
        "podinfo",
        List.of(
            "--set",
            "ingress.enabled=true,serviceMonitor.enabled=true,hpa.enabled=true",
            "--set",
            "redis.enabled=true,certificate.create=true"));
    OPTIONS.put(
        "cert-manager",
        List.of(
            "--set",
            "crds.enabled=true,prometheus.servicemonitor.enabled=true",
            "--set",
            "webhook.networkPolicy.enabled=true,podDisruptionBudget.enabled=true"));
    OPTIONS.put(
        "ingress-nginx",
        List.of(
            "--set",
            "controller.kind=DaemonSet,controller.metrics.enabled=true",
            "--set",
            "controller.metrics.serviceMonitor.enabled=true,controller.autoscaling.enabled=true",
            "--set",
            "defaultBackend.enabled=true,controller.admissionWebhooks.enabled=true"));
  }

  /** The charts {@code kustomize-worker/build charts} fetches (its list), as the README says. */
  private static final int CORPUS_CHARTS = 14;

  private static Path helm;
  private static Path corpus;
  @TempDir static Path scratch;

  /**
   * One render: the chart (below the corpus, or the test charts) and the options both commands
   * take, written as {@code helm template} takes them.
   */
  record Case(String name, Path chart, String release, String namespace, List<String> options) {
    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeAll
  static void tools() throws Exception {
    helm = Path.of(script("helm").strip());
    corpus = Path.of(script("charts").strip());
  }

  /** Runs {@code kustomize-worker/build WHAT}; its last line of output names what it made. */
  static String script(String what) throws Exception {
    Process process =
        new ProcessBuilder(REPO.resolve("kustomize-worker/build").toString(), what)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.MINUTES), "build " + what + " took too long");
    assertEquals(0, process.exitValue(), "kustomize-worker/build " + what + " failed");
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1];
  }

  /** The real projects' charts, each as its project publishes it, with and without options. */
  static Stream<Case> corpusCases() throws IOException {
    List<Case> cases = new ArrayList<>();
    for (String chart : corpusCharts()) {
      Path dir = corpus.resolve(chart);
      List<String> base = BASE.getOrDefault(chart, List.of());
      cases.add(new Case(chart + " defaults", dir, "release-name", "default", base));
      List<String> options = new ArrayList<>(base);
      options.addAll(OPTIONS.getOrDefault(chart, List.of()));
      options.addAll(
          List.of(
              "--kube-version",
              "v1.31.4",
              "--api-versions",
              "monitoring.coreos.com/v1",
              "--api-versions",
              "autoscaling/v2,policy/v1/PodDisruptionBudget",
              "--include-crds"));
      cases.add(new Case(chart + " options", dir, "web", "infra", options));
    }
    return cases.stream();
  }

  /** The charts {@code build charts} fetched: one {@code NAME.module} beside each. */
  private static List<String> corpusCharts() throws IOException {
    try (Stream<Path> files = Files.list(corpus)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".module"))
          .map(name -> name.substring(0, name.length() - ".module".length()))
          .sorted()
          .toList();
    }
  }

  /** The corpus holds every chart the options name, and more: the README states its count. */
  @Test
  void theCorpusHoldsTheProjectsCharts() throws IOException {
    List<String> charts = corpusCharts();
    assertTrue(charts.containsAll(BASE.keySet()), charts.toString());
    assertTrue(charts.containsAll(OPTIONS.keySet()), charts.toString());
    assertEquals(CORPUS_CHARTS, charts.size(), charts.toString());
  }

  /** The worker's test charts: dependencies, a library chart, tpl, required, lookup, hooks. */
  static Stream<Case> testChartCases() throws IOException {
    Path values = Files.writeString(scratch.resolve("app-values.yaml"), "replicas: 4\n");
    return Stream.of(
        new Case("app defaults", TEST_CHARTS.resolve("app"), "release-name", "default", List.of()),
        new Case(
            "app options",
            TEST_CHARTS.resolve("app"),
            "web",
            "shop",
            List.of(
                "-f",
                values.toString(),
                "--set",
                "image.tag=2.0,extraLabels.team=a\\,b",
                "--set",
                "sub.message=set",
                "--kube-version",
                "1.30",
                "--api-versions",
                "example.com/v1",
                "--include-crds",
                "--is-upgrade",
                "--skip-tests")),
        new Case(
            "app without hooks",
            TEST_CHARTS.resolve("app"),
            "web",
            "shop",
            List.of("--no-hooks", "--set", "sub.enabled=false")),
        new Case(
            "needs with its value",
            TEST_CHARTS.resolve("needs"),
            "db",
            "data",
            List.of("--set", "password=hunter22")),
        new Case("lookup finds nothing", TEST_CHARTS.resolve("lookup"), "l", "default", List.of()));
  }

  @ParameterizedTest
  @MethodSource({"corpusCases", "testChartCases"})
  void rendersAsHelmTemplate(Case c) throws Exception {
    Result reference = helmTemplate(c.chart(), c);
    assertEquals(0, reference.exit(), "helm template failed: " + reference.err());
    Result capstan = buildChart(c.chart(), c);
    assertEquals(0, capstan.exit(), capstan.err());
    assertTrue(!reference.out().isEmpty(), "helm printed nothing");
    assertEquals(reference.out(), capstan.out());
  }

  /** A packed chart (packed by the reference helm) renders as its directory does. */
  @Test
  void aPackedChartRendersAsHelmTemplate() throws Exception {
    Path packed = Files.createDirectories(scratch.resolve("packed"));
    for (Path chart : List.of(TEST_CHARTS.resolve("app"), corpus.resolve("podinfo"))) {
      Process process =
          new ProcessBuilder(helm.toString(), "package", chart.toString(), "-d", packed.toString())
              .redirectErrorStream(true)
              .start();
      process.getInputStream().readAllBytes();
      assertEquals(0, process.waitFor());
    }
    try (Stream<Path> archives = Files.list(packed)) {
      for (Path archive : archives.toList()) {
        Case c =
            new Case(archive.toString(), archive, "packed", "default", List.of("--skip-tests"));
        Result reference = helmTemplate(archive, c);
        assertEquals(0, reference.exit(), reference.err());
        assertEquals(reference.out(), buildChart(archive, c).out(), archive.toString());
      }
    }
  }

  /** Template and schema failures carry Helm's message: the template's line, the value's path. */
  @Test
  void failuresCarryHelmsMessage() throws Exception {
    List<Case> failures =
        List.of(
            new Case("required", TEST_CHARTS.resolve("needs"), "db", "data", List.of()),
            new Case(
                "schema minimum",
                TEST_CHARTS.resolve("app"),
                "web",
                "shop",
                List.of("--set", "replicas=-1")),
            new Case(
                "schema type",
                TEST_CHARTS.resolve("app"),
                "web",
                "shop",
                List.of("--set", "image.tag=7")),
            new Case(
                "schema of a real chart",
                corpus.resolve("cert-manager"),
                "web",
                "shop",
                List.of("--set", "replicaCount=many")),
            new Case(
                "a real chart's schema requires a value",
                corpus.resolve("external-dns"),
                "dns",
                "default",
                List.of()),
            new Case(
                "a real chart's template requires a value",
                corpus.resolve("karpenter"),
                "k",
                "default",
                List.of()));
    for (Case c : failures) {
      Result reference = helmTemplate(c.chart(), c);
      Result capstan = buildChart(c.chart(), c);
      assertEquals(1, reference.exit(), c + ": " + reference.out());
      assertEquals(CliException.BAD_INPUT, capstan.exit(), c + ": " + capstan.err());
      // helm template's own hint after a template's failure names a flag capstan does not have
      String helmMessage =
          reference
              .err()
              .strip()
              .replaceFirst("^Error: ", "")
              .replace("\n\nUse --debug flag to render out invalid YAML", "");
      String ours = capstan.err().strip().replaceFirst("^capstan build chart: render: ", "");
      assertEquals(helmMessage, ours, c.toString());
    }
  }

  record Result(int exit, String out, String err) {}

  private static Result helmTemplate(Path chart, Case c) throws Exception {
    List<String> command = new ArrayList<>();
    command.addAll(List.of(helm.toString(), "template", c.release(), chart.toString()));
    command.addAll(List.of("--namespace", c.namespace()));
    command.addAll(c.options());
    Path home = Files.createTempDirectory(scratch, "helm-home");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    for (String variable :
        List.of("HOME", "HELM_CONFIG_HOME", "HELM_CACHE_HOME", "HELM_DATA_HOME")) {
      builder.environment().put(variable, home.toString());
    }
    builder.environment().put("KUBECONFIG", home.resolve("none").toString());
    Path err = home.resolve("stderr");
    Process process = builder.redirectError(err.toFile()).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(2, TimeUnit.MINUTES));
    return new Result(process.exitValue(), out, Files.readString(err));
  }

  private static Result buildChart(Path chart, Case c) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    List<String> args = new ArrayList<>();
    args.addAll(List.of(chart.toString(), "--release-name", c.release(), "-n", c.namespace()));
    args.addAll(c.options());
    int exit =
        new CommandLine(new BuildChartCommand(out))
            .setErr(new PrintWriter(err))
            .execute(args.toArray(String[]::new));
    return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString());
  }
}
