package dev.capstan.cli.apply;

import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildOptions;
import dev.capstan.applier.kustomize.BuildResult;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The build stage as the command line uses it: DIR is built (plain manifests or a kustomization)
 * with files allowed from anywhere inside the {@link BuildRoot}.
 */
final class BuiltManifests implements ManifestSource {

  @Override
  public List<GenericKubernetesResource> load(Path dir, BuildRoot root) throws ManifestException {
    if (!Files.isDirectory(dir)) {
      throw new ManifestException(dir + ": not a directory");
    }
    String path = root.relative(dir);
    BuildResult result;
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(root.path()))) {
      result = builder.build(root.path(), path, BuildOptions.none());
    }
    if (result instanceof BuildResult.Failed failed) {
      throw new ManifestException(root.describe(failed.error()));
    }
    return ((BuildResult.Built) result).objects();
  }
}
