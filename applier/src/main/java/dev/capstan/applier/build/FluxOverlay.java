package dev.capstan.applier.build;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kustomization's own settings, applied on top of the built files as one more kustomization
 * level would be (which is how Flux applies them): patches, target namespace, name prefix and
 * suffix, images; then commonMetadata on object metadata only.
 */
final class FluxOverlay {
  private final LevelTransformers transformers;

  FluxOverlay(LevelTransformers transformers) {
    this.transformers = transformers;
  }

  void apply(List<Resource> resources, BuildOptions options, Path directory) {
    Origin origin = Origin.of("");
    List<PatchSpec> patches = new ArrayList<>();
    for (KustomizePatch patch : options.patches()) {
      patches.add(new PatchSpec(PatchSpec.Source.PATCHES, patch.patch(), null, patch.target(), origin));
    }
    Kustomization overlay =
        new Kustomization(
            directory, origin, false, List.of(), List.of(),
            options.targetNamespace(), options.namePrefix(), options.nameSuffix(),
            List.of(), java.util.Map.of(), options.images(), List.copyOf(patches), List.of(), List.of(), "");
    transformers.apply(overlay, resources);
    MetadataTransformer.metadataOnly("labels", options.commonLabels()).apply(resources);
    MetadataTransformer.metadataOnly("annotations", options.commonAnnotations()).apply(resources);
  }
}
