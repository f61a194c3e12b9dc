package dev.capstan.applier.kustomize;

import io.soabase.recordbuilder.core.RecordBuilder;
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
@RecordBuilder
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
    PostBuildVariables postBuild)
    implements BuildOptionsBuilder.With {

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
    return BuildOptionsBuilder.builder().build();
  }

  public BuildOptions withNameAffixes(String prefix, String suffix) {
    return withNamePrefix(prefix).withNameSuffix(suffix);
  }

  public BuildOptions withCommonMetadata(
      Map<String, String> labels, Map<String, String> annotations) {
    return withCommonLabels(labels).withCommonAnnotations(annotations);
  }

  public BuildOptions withComponents(List<String> value, boolean ignoreMissing) {
    return withComponents(value).withIgnoreMissingComponents(ignoreMissing);
  }
}
