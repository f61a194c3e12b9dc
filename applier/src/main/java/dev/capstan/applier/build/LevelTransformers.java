package dev.capstan.applier.build;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The transformers of one kustomization, in kustomize's order: strategic merge patches,
 * patches, namespace, name prefix and suffix, labels, annotations, JSON 6902 patches, replicas,
 * images.
 */
final class LevelTransformers {
  private static final Set<String> SCALABLE_KINDS =
      Set.of("Deployment", "ReplicaSet", "StatefulSet", "ReplicationController");

  private final ArtifactRoot root;
  private final PatchTransformer patches;

  LevelTransformers(ArtifactRoot root, YamlReader yaml) {
    this.root = root;
    this.patches = new PatchTransformer(yaml);
  }

  void apply(Kustomization kustomization, List<Resource> resources) {
    applyPatches(kustomization, resources, PatchSpec.Source.PATCHES_STRATEGIC_MERGE);
    applyPatches(kustomization, resources, PatchSpec.Source.PATCHES);
    new NamespaceTransformer(kustomization.namespace()).apply(resources);
    new NameAffixTransformer(kustomization.namePrefix(), kustomization.nameSuffix()).apply(resources);
    for (Kustomization.LabelSpec labels : kustomization.labels()) {
      MetadataTransformer.labels(labels).apply(resources);
    }
    MetadataTransformer.annotations(kustomization.commonAnnotations()).apply(resources);
    applyPatches(kustomization, resources, PatchSpec.Source.PATCHES_JSON6902);
    applyReplicas(kustomization, resources);
    new ImageTransformer(kustomization.images()).apply(resources);
  }

  private void applyPatches(Kustomization kustomization, List<Resource> resources, PatchSpec.Source source) {
    for (PatchSpec spec : kustomization.patches()) {
      if (spec.source() == source) {
        patches.apply(resources, load(spec, kustomization));
      }
    }
  }

  private PatchTransformer.LoadedPatch load(PatchSpec spec, Kustomization kustomization) {
    boolean json6902 = spec.source() == PatchSpec.Source.PATCHES_JSON6902;
    if (spec.inline() != null) {
      return new PatchTransformer.LoadedPatch(spec.inline(), spec.target(), json6902, spec.origin());
    }
    Path file = root.resolve(kustomization.directory(), spec.path(), kustomization.originOf(spec.path()));
    return new PatchTransformer.LoadedPatch(
        root.read(file), spec.target(), json6902, Origin.of(root.display(file)));
  }

  private static void applyReplicas(Kustomization kustomization, List<Resource> resources) {
    for (Kustomization.ReplicaCount replicas : kustomization.replicas()) {
      for (Resource resource : resources) {
        if (SCALABLE_KINDS.contains(resource.kind())
            && resource.hadName(replicas.name())
            && resource.object().get("spec") instanceof Map<?, ?>) {
          ObjectTree.mapAt(resource.object(), "spec").put("replicas", replicas.count());
        }
      }
    }
  }
}
