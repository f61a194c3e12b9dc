package dev.capstan.applier.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Which directory {@code build}, {@code apply} and {@code diff} build, and the root it may read
 * from.
 */
public final class ManifestOptions {

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
          "Directory that no file may be read from outside of, e.g. a kustomization's ../base"
              + " (default: the enclosing Git work tree, else the -f directory). On Linux the"
              + " build runs in a worker process that the kernel confines to it (Landlock, no"
              + " network); on macOS and Windows the worker runs unconfined and keeps to it by"
              + " its own checks.")
  Path root;

  BuildRoot buildRoot() {
    return BuildRoot.of(directory, root);
  }
}
