package dev.capstan.cli.apply;

import dev.capstan.cli.cluster.CliException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Which directory {@code build}, {@code apply} and {@code diff} build, and the root it may read
 * from.
 */
public final class ManifestOptions {
  /** The help of {@code -f}. */
  static final String DIRECTORY_HELP = "Directory of manifests or a kustomization.";

  /** The help of {@code --root}. */
  static final String ROOT_HELP =
      "Directory that no file may be read from outside of, e.g. a kustomization's ../base"
          + " (default: the enclosing Git work tree, else the -f directory). On Linux the"
          + " build runs in a worker process that the kernel confines to it (Landlock, no"
          + " network); on macOS and Windows the worker runs unconfined and keeps to it by"
          + " its own checks.";

  @Option(
      names = {"-f", "--filename"},
      required = true,
      paramLabel = "DIR",
      description = DIRECTORY_HELP)
  Path directory;

  @Option(names = "--root", paramLabel = "DIR", description = ROOT_HELP)
  Path root;

  /** Options given by a command that reads -f and --root itself (one with subcommands). */
  static ManifestOptions of(Path directory, Path root) {
    ManifestOptions options = new ManifestOptions();
    options.directory = directory;
    options.root = root;
    return options;
  }

  /** The objects of the directory; one that cannot be read is bad input. */
  List<GenericKubernetesResource> load(ManifestSource source) {
    try {
      return source.load(directory, buildRoot());
    } catch (ManifestSource.ManifestException e) {
      throw new CliException(e.getMessage(), CliException.BAD_INPUT);
    }
  }

  BuildRoot buildRoot() {
    return BuildRoot.of(directory, root);
  }
}
