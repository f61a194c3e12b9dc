package dev.capstan.applier.cli;

import dev.capstan.applier.build.BuildLimits;
import dev.capstan.applier.build.BuildOptions;
import dev.capstan.applier.build.BuildResult;
import dev.capstan.applier.build.ManifestBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The build stage as the command line uses it: DIR is built (plain manifests or a kustomization)
 * with resources allowed from anywhere inside the enclosing Git work tree, else inside DIR.
 */
final class BuiltManifests implements ManifestSource {

  @Override
  public List<GenericKubernetesResource> load(Path dir) throws ManifestException {
    Path absolute = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(absolute)) {
      throw new ManifestException(dir + ": not a directory");
    }
    Path root = enclosingWorkTree(absolute);
    String path = root.relativize(absolute).toString();
    BuildResult result;
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.oneShot())) {
      result = builder.build(root, path.isEmpty() ? "." : path, BuildOptions.none());
    }
    if (result instanceof BuildResult.Failed failed) {
      throw new ManifestException(failed.error().message());
    }
    return ((BuildResult.Built) result).objects();
  }

  private static Path enclosingWorkTree(Path dir) {
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git"))) {
        return p;
      }
    }
    return dir;
  }
}
