package dev.capstan.cli.apply;

import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildOptions;
import dev.capstan.applier.kustomize.BuildResult;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.cli.cluster.CliException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code capstan build -f DIR}: prints, as multi-document YAML, the objects the applier would apply
 * for DIR (a directory of manifests or a kustomization), without Capstan's own labels.
 */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description = "Print the objects that would be applied for a directory.")
public final class BuildCommand implements Callable<Integer> {
  /** Exit code when the directory cannot be built. */
  public static final int BAD_INPUT = CliException.BAD_INPUT;

  @Spec CommandSpec spec;

  @Mixin ManifestOptions files = new ManifestOptions();

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    BuildRoot root = files.buildRoot();
    String path;
    try {
      path = root.relative(files.directory);
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
