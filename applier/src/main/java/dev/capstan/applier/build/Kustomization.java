package dev.capstan.applier.build;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A parsed kustomization file (or Component): only the fields Capstan supports. */
record Kustomization(
    Path directory,
    Origin origin,
    boolean component,
    List<String> resources,
    List<String> components,
    String namespace,
    String namePrefix,
    String nameSuffix,
    List<LabelSpec> labels,
    Map<String, String> commonAnnotations,
    List<ImageOverride> images,
    List<PatchSpec> patches,
    List<GeneratorSpec> generators,
    List<ReplicaCount> replicas,
    String text) {

  /** Where {@code value} is first written in the file, for errors about one entry. */
  Origin originOf(String value) {
    int index = text.indexOf(value);
    if (value.isEmpty() || index < 0) {
      return origin;
    }
    int line = (int) text.substring(0, index).chars().filter(c -> c == '\n').count() + 1;
    return origin.atLine(line);
  }

  /** A set of labels and where kustomize puts them. */
  record LabelSpec(Map<String, String> pairs, boolean includeSelectors, boolean includeTemplates) {}

  /** An entry of {@code replicas}: sets the replica count of the named workload. */
  record ReplicaCount(String name, long count) {}
}
