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
              + " (default: the enclosing Git work tree, else the -f directory).")
  Path root;

  BuildRoot buildRoot() {
    return BuildRoot.of(directory, root);
  }
}
