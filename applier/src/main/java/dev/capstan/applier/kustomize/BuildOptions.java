package dev.capstan.applier.kustomize;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a Kustomization adds to the build of its path, as Flux adds it: {@code targetNamespace},
 * {@code namePrefix} and {@code nameSuffix} replace those of the path's kustomization; {@code
 * patches} and {@code components} are appended to it; {@code images} are merged into it; {@code
 * commonMetadata} is set on every object's metadata after the build; {@code buildMetadata}
 * (kustomize's {@code originAnnotations}, {@code transformerAnnotations}) replaces that of the
 * path's kustomization; {@code postBuild} (null when the Kustomization has none) substitutes
 * variables. Empty strings and collections mean "not set".
 */
public record BuildOptions(
    String targetNamespace,
    String namePrefix,
    String nameSuffix,
    Map<String, String> commonLabels,
    Map<String, String> commonAnnotations,
    List<KustomizePatch> patches,
    List<ImageOverride> images,
    List<String> components,
    boolean ignoreMissingComponents,
    List<String> buildMetadata,
    PostBuildVariables postBuild) {

  public BuildOptions {
    targetNamespace = Objects.requireNonNullElse(targetNamespace, "");
    namePrefix = Objects.requireNonNullElse(namePrefix, "");
    nameSuffix = Objects.requireNonNullElse(nameSuffix, "");
    commonLabels = commonLabels == null ? Map.of() : Map.copyOf(commonLabels);
    commonAnnotations = commonAnnotations == null ? Map.of() : Map.copyOf(commonAnnotations);
    patches = patches == null ? List.of() : List.copyOf(patches);
    images = images == null ? List.of() : List.copyOf(images);
    components = components == null ? List.of() : List.copyOf(components);
    buildMetadata = buildMetadata == null ? List.of() : List.copyOf(buildMetadata);
  }

  /** No Kustomization-level changes: the path is built as it is. */
  public static BuildOptions none() {
    return new BuildOptions(null, null, null, null, null, null, null, null, false, null, null);
  }

  public BuildOptions withTargetNamespace(String value) {
    return with(c -> c.targetNamespace = value);
  }

  public BuildOptions withNameAffixes(String prefix, String suffix) {
    return with(
        c -> {
          c.namePrefix = prefix;
          c.nameSuffix = suffix;
        });
  }

  public BuildOptions withCommonMetadata(
      Map<String, String> labels, Map<String, String> annotations) {
    return with(
        c -> {
          c.commonLabels = labels;
          c.commonAnnotations = annotations;
        });
  }

  public BuildOptions withPatches(List<KustomizePatch> value) {
    return with(c -> c.patches = value);
  }

  public BuildOptions withImages(List<ImageOverride> value) {
    return with(c -> c.images = value);
  }

  public BuildOptions withComponents(List<String> value, boolean ignoreMissing) {
    return with(
        c -> {
          c.components = value;
          c.ignoreMissingComponents = ignoreMissing;
        });
  }

  public BuildOptions withBuildMetadata(List<String> value) {
    return with(c -> c.buildMetadata = value);
  }

  public BuildOptions withPostBuild(PostBuildVariables value) {
    return with(c -> c.postBuild = value);
  }

  /** A copy with {@code change} made to it: the one place options are copied field by field. */
  private BuildOptions with(Consumer<Copy> change) {
    Copy copy = new Copy(this);
    change.accept(copy);
    return copy.options();
  }

  /** The fields of a copy while it is being changed. */
  private static final class Copy {
    String targetNamespace;
    String namePrefix;
    String nameSuffix;
    Map<String, String> commonLabels;
    Map<String, String> commonAnnotations;
    List<KustomizePatch> patches;
    List<ImageOverride> images;
    List<String> components;
    boolean ignoreMissingComponents;
    List<String> buildMetadata;
    PostBuildVariables postBuild;

    Copy(BuildOptions from) {
      targetNamespace = from.targetNamespace;
      namePrefix = from.namePrefix;
      nameSuffix = from.nameSuffix;
      commonLabels = from.commonLabels;
      commonAnnotations = from.commonAnnotations;
      patches = from.patches;
      images = from.images;
      components = from.components;
      ignoreMissingComponents = from.ignoreMissingComponents;
      buildMetadata = from.buildMetadata;
      postBuild = from.postBuild;
    }

    BuildOptions options() {
      return new BuildOptions(
          targetNamespace,
          namePrefix,
          nameSuffix,
          commonLabels,
          commonAnnotations,
          patches,
          images,
          components,
          ignoreMissingComponents,
          buildMetadata,
          postBuild);
    }
  }
}
