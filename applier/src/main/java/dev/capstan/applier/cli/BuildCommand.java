package dev.capstan.applier.cli;

import dev.capstan.applier.build.BuildOptions;
import dev.capstan.applier.build.BuildResult;
import dev.capstan.applier.build.ManifestBuilder;
import dev.capstan.applier.build.ManifestYaml;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
  public static final int BAD_INPUT = 2;

  @Spec CommandSpec spec;

  @Option(
      names = {"-f", "--filename"},
      required = true,
      paramLabel = "DIR",
      description = "Directory of manifests or a kustomization; it is also the root paths may not leave.")
  Path directory;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    BuildResult result = new ManifestBuilder().build(directory, ".", BuildOptions.none());
    if (result instanceof BuildResult.Failed failed) {
      err.println("capstan build: " + failed.error().describe());
      err.flush();
      return BAD_INPUT;
    }
    out.print(new ManifestYaml().write(((BuildResult.Built) result).objects()));
    out.flush();
    return 0;
  }
}
