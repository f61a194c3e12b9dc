package dev.capstan.applier.kustomize;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A build request in the worker's JSON form (see kustomize-worker/go/request.go): the artifact's
 * directory ({@code root}), the path in it, the Kustomization's build fields and, at most, files
 * that replace the artifact's for this build only (decrypted inputs, which never reach a disk).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
record KustomizeRequest(
    String root,
    String path,
    String output,
    Spec spec,
    PostBuild postBuild,
    Map<String, byte[]> files) {

  /** What the module returns: objects for the applier, or kustomize's YAML text. */
  enum Output {
    OBJECTS("objects"),
    YAML("yaml");

    private final String wire;

    Output(String wire) {
      this.wire = wire;
    }
  }

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record Spec(
      String targetNamespace,
      String namePrefix,
      String nameSuffix,
      List<KustomizePatch> patches,
      List<ImageOverride> images,
      List<String> components,
      boolean ignoreMissingComponents,
      List<String> buildMetadata,
      CommonMetadata commonMetadata) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record CommonMetadata(Map<String, String> labels, Map<String, String> annotations) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record PostBuild(
      Map<String, String> substitute,
      List<Map<String, String>> substituteFrom,
      boolean always,
      boolean strict) {}

  static KustomizeRequest of(
      Path root, String path, Output output, BuildOptions options, Map<String, byte[]> files) {
    CommonMetadata common =
        options.commonLabels().isEmpty() && options.commonAnnotations().isEmpty()
            ? null
            : new CommonMetadata(options.commonLabels(), options.commonAnnotations());
    Spec spec =
        new Spec(
            options.targetNamespace(),
            options.namePrefix(),
            options.nameSuffix(),
            options.patches(),
            options.images(),
            options.components(),
            options.ignoreMissingComponents(),
            options.buildMetadata(),
            common);
    PostBuildVariables vars = options.postBuild();
    PostBuild post =
        vars == null
            ? null
            : new PostBuild(vars.substitute(), vars.substituteFrom(), vars.always(), vars.strict());
    return new KustomizeRequest(
        root.toString(),
        path == null || path.isBlank() ? "." : path,
        output.wire,
        spec,
        post,
        new TreeMap<>(files));
  }

  byte[] toJson(ObjectMapper mapper) {
    try {
      return mapper.writeValueAsBytes(this);
    } catch (JsonProcessingException e) {
      throw new BuildException(
          BuildErrorKind.INTERNAL, "cannot encode the build request: " + e.getOriginalMessage());
    }
  }

  boolean holdsDecrypted() {
    return !files.isEmpty();
  }

  /** Values may come from Secrets, files may be decrypted: never shown. */
  @Override
  public String toString() {
    return "KustomizeRequest[path=" + path + ", output=" + output + "]";
  }
}
