package dev.capstan.applier.cli;

import dev.capstan.applier.build.BuildLimits;
import dev.capstan.applier.build.BuildOptions;
import dev.capstan.applier.build.BuildResult;
import dev.capstan.applier.build.ManifestBuilder;
import java.io.PrintWriter;
import java.nio.file.Files;
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
      description = "Directory of manifests or a kustomization.")
  Path directory;

  @Option(
      names = "--root",
      paramLabel = "DIR",
      description =
          "Directory that no resource may be read from outside of (default: the enclosing Git "
              + "work tree, else the -f directory).")
  Path root;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path top = (root != null ? root : enclosingWorkTree(directory)).toAbsolutePath().normalize();
    Path dir = directory.toAbsolutePath().normalize();
    if (!dir.startsWith(top)) {
      err.println("capstan build: " + directory + " is not inside the root " + top);
      err.flush();
      return BAD_INPUT;
    }
    BuildResult result;
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.oneShot())) {
      result = builder.print(top, top.relativize(dir).toString(), BuildOptions.none());
    }
    if (result instanceof BuildResult.Failed failed) {
      err.println("capstan build: " + failed.error().message());
      err.flush();
      return BAD_INPUT;
    }
    out.print(((BuildResult.Printed) result).yaml());
    out.flush();
    return 0;
  }

  /** Kustomizations often use {@code ../base}: the repository they live in is the natural root. */
  private static Path enclosingWorkTree(Path directory) {
    for (Path p = directory.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        return p;
      }
    }
    return directory;
  }
}
