package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.kustomize.worker.WorkerBinary;
import dev.capstan.kustomize.worker.WorkerKind;
import dev.capstan.testing.RepoRoot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code capstan build chart}'s two paths print the same: the JVM's (the command in this process,
 * its chart worker behind it) and the chart worker's one-shot mode that {@code bin/capstan} runs
 * directly ({@code capstan-chart-worker template ARGS}, the worker this jar unpacks and checks),
 * byte for byte on the fidelity corpus and its test charts, and the same message and exit status
 * for bad input; {@code bin/capstan} takes the native path without the jar and leaves what it does
 * not take (help) to the JVM.
 */
class BuildChartNativeIT {
  private static final Path REPO = RepoRoot.find();
  private static final Path TEST_CHARTS = REPO.resolve("kustomize-worker/go/testdata/charts");

  private static Path worker;
  private static Path corpus;
  @TempDir static Path scratch;

  record Result(int exit, String out, String err) {}

  @BeforeAll
  static void tools() throws Exception {
    worker =
        WorkerBinary.forThisMachine(WorkerBinary.defaultCacheDirectory(), WorkerKind.CHART).path();
    corpus = Path.of(BuildChartFidelityIT.script("charts").strip());
  }

  @Test
  void bothPathsPrintTheSameForTheCorpusAndTheTestCharts() throws Exception {
    Path values = Files.writeString(scratch.resolve("app-values.yaml"), "replicas: 4\n");
    List<List<String>> cases = new ArrayList<>();
    for (String chart : corpusCharts()) {
      List<String> base = new ArrayList<>(List.of(corpus.resolve(chart).toString()));
      base.addAll(BuildChartFidelityIT.BASE.getOrDefault(chart, List.of()));
      cases.add(base);
      List<String> options = new ArrayList<>(base);
      options.addAll(BuildChartFidelityIT.OPTIONS.getOrDefault(chart, List.of()));
      options.addAll(
          List.of(
              "--release-name",
              "web",
              "-n",
              "infra",
              "--kube-version",
              "v1.31.4",
              "--api-versions",
              "monitoring.coreos.com/v1",
              "-a",
              "autoscaling/v2,policy/v1",
              "--include-crds"));
      cases.add(options);
    }
    String app = TEST_CHARTS.resolve("app").toString();
    cases.add(
        List.of(
            app,
            "-f",
            values.toString(),
            "--set",
            "image.tag=2.0,extraLabels.team=a\\,b",
            "--release-name",
            "web",
            "--namespace=shop",
            "--is-upgrade",
            "--skip-tests"));
    cases.add(List.of(app, "--no-hooks", "--set", "sub.enabled=false"));
    cases.add(List.of(TEST_CHARTS.resolve("lookup").toString(), "--release-name", "l"));
    cases.add(List.of(TEST_CHARTS.resolve("needs").toString(), "--set", "password=hunter22"));
    for (List<String> args : cases) {
      Result jvm = jvm(args);
      assertEquals(0, jvm.exit(), args + ": " + jvm.err());
      assertTrue(!jvm.out().isEmpty(), args.toString());
      assertEquals(jvm, oneShot(args), args.toString());
    }
  }

  @Test
  void badInputFailsWithTheSameMessageAndExitStatus() throws Exception {
    Path notUtf8 = Files.write(scratch.resolve("latin1.yaml"), new byte[] {'a', ':', ' ', -23});
    Path notYaml = Files.writeString(scratch.resolve("broken.yaml"), "a: [\n");
    String app = TEST_CHARTS.resolve("app").toString();
    List<List<String>> cases =
        List.of(
            List.of(scratch.resolve("missing").toString()),
            List.of(app, "-f", scratch.resolve("none.yaml").toString()),
            List.of(app, "--values", notUtf8.toString()),
            List.of(app, "-f", notYaml.toString()),
            List.of(app, "--set", "replicas=-1"),
            List.of(TEST_CHARTS.resolve("needs").toString(), "--release-name", "db"),
            List.of(
                TEST_CHARTS.resolve("needs").toString(),
                "--set",
                "password=hunter22",
                "--kube-version",
                "not-a-version"));
    for (List<String> args : cases) {
      Result jvm = jvm(args);
      assertTrue(jvm.exit() != 0 && !jvm.err().isEmpty(), args + ": " + jvm);
      assertEquals(jvm, oneShot(args), args.toString());
    }
  }

  @Test
  void binCapstanRunsTheWorkerWithoutTheJarAndLeavesHelpToTheJvm() throws Exception {
    String app = TEST_CHARTS.resolve("app").toString();
    List<String> args = List.of(app, "--release-name", "web");
    Result script = binCapstan(args);
    assertEquals(jvm(args), script);

    Result help = binCapstan(List.of(app, "--help"));
    assertEquals(2, help.exit(), help.toString());
    assertTrue(help.err().startsWith("capstan: no "), help.err());
  }

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

  private static Result jvm(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    int exit =
        new CommandLine(new BuildChartCommand(out))
            .setErr(new PrintWriter(err))
            .execute(args.toArray(String[]::new));
    return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString());
  }

  private static Result oneShot(List<String> args) throws Exception {
    List<String> command = new ArrayList<>(List.of(worker.toString(), "template"));
    command.addAll(args);
    return run(new ProcessBuilder(command), Map.of());
  }

  /** bin/capstan with a jar that is not there: only the native path can render. */
  private static Result binCapstan(List<String> args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of(REPO.resolve("bin/capstan").toString(), "build", "chart"));
    command.addAll(args);
    return run(
        new ProcessBuilder(command),
        Map.of("CAPSTAN_JAR", scratch.resolve("no-such.jar").toString()));
  }

  private static Result run(ProcessBuilder builder, Map<String, String> env) throws Exception {
    builder.environment().putAll(env);
    Path err = Files.createTempFile(scratch, "stderr", ".txt");
    Process process = builder.redirectError(err.toFile()).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(2, TimeUnit.MINUTES));
    return new Result(process.exitValue(), out, Files.readString(err));
  }
}
