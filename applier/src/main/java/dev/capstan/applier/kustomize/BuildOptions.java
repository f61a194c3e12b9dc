package dev.capstan.applier.kustomize;

import java.util.List;
import java.util.Map;
import java.util.Objects;

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
    return new BuildOptions(
        value,
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

  public BuildOptions withNameAffixes(String prefix, String suffix) {
    return new BuildOptions(
        targetNamespace,
        prefix,
        suffix,
        commonLabels,
        commonAnnotations,
        patches,
        images,
        components,
        ignoreMissingComponents,
        buildMetadata,
        postBuild);
  }

  public BuildOptions withCommonMetadata(
      Map<String, String> labels, Map<String, String> annotations) {
    return new BuildOptions(
        targetNamespace,
        namePrefix,
        nameSuffix,
        labels,
        annotations,
        patches,
        images,
        components,
        ignoreMissingComponents,
        buildMetadata,
        postBuild);
  }

  public BuildOptions withPatches(List<KustomizePatch> value) {
    return new BuildOptions(
        targetNamespace,
        namePrefix,
        nameSuffix,
        commonLabels,
        commonAnnotations,
        value,
        images,
        components,
        ignoreMissingComponents,
        buildMetadata,
        postBuild);
  }

  public BuildOptions withImages(List<ImageOverride> value) {
    return new BuildOptions(
        targetNamespace,
        namePrefix,
        nameSuffix,
        commonLabels,
        commonAnnotations,
        patches,
        value,
        components,
        ignoreMissingComponents,
        buildMetadata,
        postBuild);
  }

  public BuildOptions withComponents(List<String> value, boolean ignoreMissing) {
    return new BuildOptions(
        targetNamespace,
        namePrefix,
        nameSuffix,
        commonLabels,
        commonAnnotations,
        patches,
        images,
        value,
        ignoreMissing,
        buildMetadata,
        postBuild);
  }

  public BuildOptions withBuildMetadata(List<String> value) {
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
        value,
        postBuild);
  }

  public BuildOptions withPostBuild(PostBuildVariables value) {
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
        value);
  }
}
