package dev.capstan.cli.apply;

import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.kustomize.chart.ChartLookups;
import dev.capstan.kustomize.chart.ChartRender;
import dev.capstan.kustomize.chart.ChartRenderException;
import dev.capstan.kustomize.chart.ChartRenderRequest;
import dev.capstan.kustomize.chart.ChartVersionPin;
import dev.capstan.kustomize.chart.PostRenderStrategy;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code capstan build chart PATH}: what {@code helm template NAME PATH} prints with the same
 * options, rendered by Helm's own code (the pinned Helm) in a chart worker, confined to the chart.
 */
@Command(
    name = "chart",
    mixinStandardHelpOptions = true,
    description = {
      "Print a Helm chart rendered as `helm template NAME PATH` prints it, by Helm's own code"
          + " (Helm v4.2.1, the version Flux's helm-controller pins), with no cluster: `lookup`"
          + " finds nothing and the Capabilities are Helm's defaults unless given.",
      "PATH is a chart directory (its charts/ must hold its dependencies) or a packaged .tgz."
    })
public final class BuildChartCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "PATH", description = "Chart directory or .tgz file.")
  Path chart;

  @Option(
      names = {"-f", "--values"},
      paramLabel = "FILE",
      description =
          "Values file (YAML), merged over the chart's values; repeatable, each over the ones"
              + " before, as Helm merges them. Local files only (no URL, no -).")
  List<Path> valuesFiles = new ArrayList<>();

  @Option(
      names = "--set",
      paramLabel = "K=V",
      description =
          "A value in Helm's --set syntax (a.b=c, list[0]=x, k1=v1,k2=v2, \\, to escape a comma),"
              + " parsed by Helm's own parser and set after every values file; repeatable.")
  List<String> set = new ArrayList<>();

  @Option(
      names = "--release-name",
      paramLabel = "NAME",
      description = "Release name (default: ${DEFAULT-VALUE}, as helm template's).")
  String releaseName = "release-name";

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description = "Release namespace (default: ${DEFAULT-VALUE}).")
  String namespace = "default";

  @Option(
      names = "--kube-version",
      paramLabel = "V",
      description = "Kubernetes version for Capabilities.KubeVersion (default: Helm's).")
  String kubeVersion = "";

  @Option(
      names = {"-a", "--api-versions"},
      paramLabel = "G/V",
      split = ",",
      description =
          "API version for Capabilities.APIVersions, added to Helm's defaults; repeatable or"
              + " comma-separated.")
  List<String> apiVersions = new ArrayList<>();

  @Option(names = "--include-crds", description = "Include the chart's crds/ in the output.")
  boolean includeCrds;

  @Option(names = "--skip-tests", description = "Leave out test hooks.")
  boolean skipTests;

  @Option(names = "--no-hooks", description = "Leave out every hook.")
  boolean noHooks;

  @Option(names = "--is-upgrade", description = "Set .Release.IsUpgrade instead of IsInstall.")
  boolean isUpgrade;

  @Option(
      names = "--skip-schema-validation",
      description = "Do not check the values against values.schema.json.")
  boolean skipSchemaValidation;

  private final OutputStream stdout;

  public BuildChartCommand() {
    this(System.out);
  }

  /** A command printing the render's bytes (UTF-8, as helm prints them) to {@code stdout}. */
  BuildChartCommand(OutputStream stdout) {
    this.stdout = stdout;
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Path path = chart.toAbsolutePath().normalize();
    if (!Files.exists(path)) {
      return fail(err, "no chart at " + chart, CliException.BAD_INPUT);
    }
    // The worker reads the chart and nothing beside it: the directory itself, or the archive's.
    boolean directory = Files.isDirectory(path);
    Path root = directory ? path : path.getParent();
    String relative = directory ? "." : path.getFileName().toString();
    ChartRender render;
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(root))) {
      render = builder.charts().render(request(root, relative));
    } catch (ChartRenderException e) {
      return fail(err, e.describe(), exitCode(e.stage()));
    } catch (CliException e) {
      return fail(err, e.getMessage(), e.exitCode());
    }
    try {
      stdout.write(render.templateText().getBytes(StandardCharsets.UTF_8));
      stdout.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return 0;
  }

  private ChartRenderRequest request(Path root, String relative) {
    return new ChartRenderRequest(
        root,
        relative,
        releaseName,
        namespace,
        ValuesFiles.read(valuesFiles),
        set,
        kubeVersion,
        apiVersions,
        includeCrds,
        skipTests,
        noHooks,
        isUpgrade,
        skipSchemaValidation,
        List.of(),
        PostRenderStrategy.COMBINED,
        ChartLookups.NONE,
        ChartVersionPin.NONE);
  }

  private static int exitCode(ChartRenderException.Stage stage) {
    return switch (stage) {
      case REQUEST, CHART, VALUES, RENDER, VERSION -> CliException.BAD_INPUT;
      case LIMIT, SANDBOX, WORKER -> CliException.FAILED;
    };
  }

  private static int fail(PrintWriter err, String message, int exitCode) {
    err.println("capstan build chart: " + message);
    err.flush();
    return exitCode;
  }
}
