package dev.capstan.applier.build;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a Kustomization adds on top of the files of its path: {@code targetNamespace},
 * {@code namePrefix}, {@code nameSuffix}, {@code commonMetadata}, {@code patches}, {@code images}
 * and {@code postBuild} ({@code postBuild} true when the section is present: defaults such as
 * {@code ${VAR:=x}} are then substituted even with no variables). Empty strings and collections
 * mean "not set".
 */
public record BuildOptions(
    String targetNamespace,
    String namePrefix,
    String nameSuffix,
    Map<String, String> commonLabels,
    Map<String, String> commonAnnotations,
    List<KustomizePatch> patches,
    List<ImageOverride> images,
    Map<String, String> substitute,
    List<SubstituteReference> substituteFrom,
    SubstitutionValues substitutionValues,
    boolean postBuild) {

  public BuildOptions {
    targetNamespace = targetNamespace == null ? "" : targetNamespace;
    namePrefix = namePrefix == null ? "" : namePrefix;
    nameSuffix = nameSuffix == null ? "" : nameSuffix;
    commonLabels = commonLabels == null ? Map.of() : Map.copyOf(commonLabels);
    commonAnnotations = commonAnnotations == null ? Map.of() : Map.copyOf(commonAnnotations);
    patches = patches == null ? List.of() : List.copyOf(patches);
    images = images == null ? List.of() : List.copyOf(images);
    substitute = substitute == null ? Map.of() : Map.copyOf(substitute);
    substituteFrom = substituteFrom == null ? List.of() : List.copyOf(substituteFrom);
    substitutionValues = Objects.requireNonNullElse(substitutionValues, SubstitutionValues.none());
  }

  /** No Kustomization-level changes: the files are built as they are. */
  public static BuildOptions none() {
    return new BuildOptions(null, null, null, null, null, null, null, null, null, null, false);
  }

  public BuildOptions withTargetNamespace(String value) {
    return new BuildOptions(value, namePrefix, nameSuffix, commonLabels, commonAnnotations,
        patches, images, substitute, substituteFrom, substitutionValues, postBuild);
  }

  public BuildOptions withNamePrefix(String value) {
    return new BuildOptions(targetNamespace, value, nameSuffix, commonLabels, commonAnnotations,
        patches, images, substitute, substituteFrom, substitutionValues, postBuild);
  }

  public BuildOptions withNameSuffix(String value) {
    return new BuildOptions(targetNamespace, namePrefix, value, commonLabels, commonAnnotations,
        patches, images, substitute, substituteFrom, substitutionValues, postBuild);
  }

  public BuildOptions withCommonMetadata(Map<String, String> labels, Map<String, String> annotations) {
    return new BuildOptions(targetNamespace, namePrefix, nameSuffix, labels, annotations,
        patches, images, substitute, substituteFrom, substitutionValues, postBuild);
  }

  public BuildOptions withPatches(List<KustomizePatch> value) {
    return new BuildOptions(targetNamespace, namePrefix, nameSuffix, commonLabels,
        commonAnnotations, value, images, substitute, substituteFrom, substitutionValues, postBuild);
  }

  public BuildOptions withImages(List<ImageOverride> value) {
    return new BuildOptions(targetNamespace, namePrefix, nameSuffix, commonLabels,
        commonAnnotations, patches, value, substitute, substituteFrom, substitutionValues, postBuild);
  }

  public BuildOptions withPostBuild(
      Map<String, String> values, List<SubstituteReference> from, SubstitutionValues source) {
    return new BuildOptions(targetNamespace, namePrefix, nameSuffix, commonLabels,
        commonAnnotations, patches, images, values, from, source, true);
  }

  /** Substitution runs whenever the Kustomization has a postBuild section, even an empty one. */
  boolean hasSubstitution() {
    return postBuild || !substitute.isEmpty() || !substituteFrom.isEmpty();
  }
}
