package dev.capstan.cli.apply;

import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildOptions;
import dev.capstan.applier.kustomize.BuildResult;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.cli.cluster.CliException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code capstan build -f DIR}: prints, as multi-document YAML, the objects the applier would apply
 * for DIR (a directory of manifests or a kustomization), without Capstan's own labels. {@code
 * capstan build chart PATH} ({@link BuildChartCommand}) renders a Helm chart instead.
 */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description = "Print the objects that would be applied for a directory.",
    subcommands = {BuildChartCommand.class})
public final class BuildCommand implements Callable<Integer> {
  /** Exit code when the directory cannot be built. */
  public static final int BAD_INPUT = CliException.BAD_INPUT;

  @Spec CommandSpec spec;

  // Not ManifestOptions: its -f is required, and the parser checks a command's required options
  // before it reads a subcommand, so `build chart` would need a -f it does not use. build
  // requires -f itself.
  @Option(
      names = {"-f", "--filename"},
      paramLabel = "DIR",
      description = ManifestOptions.DIRECTORY_HELP + " Required unless a subcommand is given.")
  Path directory;

  @Option(names = "--root", paramLabel = "DIR", description = ManifestOptions.ROOT_HELP)
  Path rootDirectory;

  @Override
  public Integer call() {
    if (directory == null) {
      throw new ParameterException(spec.commandLine(), "Missing required option: '--filename=DIR'");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    BuildRoot root = BuildRoot.of(directory, rootDirectory);
    String path;
    try {
      path = root.relative(directory);
    } catch (ManifestSource.ManifestException e) {
      return fail(err, e.getMessage());
    }
    BuildResult result;
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(root.path()))) {
      result = builder.print(root.path(), path, BuildOptions.none());
    }
    if (result instanceof BuildResult.Failed failed) {
      return fail(err, root.describe(failed.error()));
    }
    out.print(((BuildResult.Printed) result).yaml());
    out.flush();
    return 0;
  }

  private static int fail(PrintWriter err, String message) {
    err.println("capstan build: " + message);
    err.flush();
    return BAD_INPUT;
  }
}
