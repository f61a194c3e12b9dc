package dev.capstan.applier.build;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns the mapping of a kustomization file into a {@link Kustomization}, refusing unknown fields. */
final class KustomizationParser {
  private static final Set<String> API_VERSIONS =
      Set.of("kustomize.config.k8s.io/v1beta1", "kustomize.config.k8s.io/v1alpha1");

  private final YamlReader yaml;

  KustomizationParser(YamlReader yaml) {
    this.yaml = yaml;
  }

  Kustomization parse(String text, Path directory, String file) {
    Map<String, Object> map = yaml.readMapping(text, file);
    Origin origin = new Origin(file, 1);
    Fields fields = new Fields(map, origin, "");
    try {
      return parse(fields, directory, text);
    } catch (BuildFailure failure) {
      throw withLineOfField(failure, text);
    }
  }

  private Kustomization parse(Fields fields, Path directory, String text) {
    String apiVersion = fields.string("apiVersion");
    if (apiVersion != null && !API_VERSIONS.contains(apiVersion)) {
      throw fields.invalid("apiVersion", "must be one of " + API_VERSIONS);
    }
    String kind = fields.string("kind", "Kustomization");
    if (!kind.equals("Kustomization") && !kind.equals("Component")) {
      throw fields.invalid("kind", "must be Kustomization or Component");
    }
    fields.mapping("metadata");
    List<String> resources = new ArrayList<>(fields.strings("resources"));
    resources.addAll(fields.strings("bases"));
    List<Kustomization.LabelSpec> labels = new ArrayList<>();
    Map<String, String> commonLabels = fields.stringMap("commonLabels");
    if (!commonLabels.isEmpty()) {
      labels.add(new Kustomization.LabelSpec(commonLabels, true, true));
    }
    for (Fields label : fields.mappings("labels")) {
      labels.add(
          new Kustomization.LabelSpec(
              label.stringMap("pairs"),
              Boolean.TRUE.equals(label.bool("includeSelectors")),
              Boolean.TRUE.equals(label.bool("includeTemplates"))));
      label.rejectUnknown();
    }
    Kustomization kustomization =
        new Kustomization(
            directory,
            fields.origin(),
            kind.equals("Component"),
            List.copyOf(resources),
            fields.strings("components"),
            fields.string("namespace", ""),
            fields.string("namePrefix", ""),
            fields.string("nameSuffix", ""),
            List.copyOf(labels),
            fields.stringMap("commonAnnotations"),
            images(fields),
            patches(fields),
            GeneratorSpecParser.generators(fields),
            replicas(fields),
            text);
    fields.rejectUnknown();
    return kustomization;
  }

  private static List<ImageOverride> images(Fields fields) {
    List<ImageOverride> images = new ArrayList<>();
    for (Fields image : fields.mappings("images")) {
      String name = image.string("name");
      if (name == null || name.isEmpty()) {
        throw image.invalid("name", "is required");
      }
      images.add(
          new ImageOverride(
              name, image.string("newName"), image.string("newTag"), image.string("digest")));
      image.rejectUnknown();
    }
    return List.copyOf(images);
  }

  private static List<PatchSpec> patches(Fields fields) {
    List<PatchSpec> patches = new ArrayList<>();
    Origin origin = fields.origin();
    for (String entry : fields.strings("patchesStrategicMerge")) {
      boolean inline = entry.contains("\n");
      patches.add(
          new PatchSpec(
              PatchSpec.Source.PATCHES_STRATEGIC_MERGE,
              inline ? entry : null,
              inline ? null : entry,
              null,
              origin));
    }
    for (Fields patch : fields.mappings("patches")) {
      patches.add(patch(patch, PatchSpec.Source.PATCHES));
      Map<String, Object> options = patch.mapping("options");
      if (options != null) {
        Fields optionFields = new Fields(options, origin, patch.where() + ".options");
        if (Boolean.TRUE.equals(optionFields.bool("allowNameChange"))
            || Boolean.TRUE.equals(optionFields.bool("allowKindChange"))) {
          throw patch.invalid("options", "allowNameChange and allowKindChange are not supported");
        }
        optionFields.rejectUnknown();
      }
      patch.rejectUnknown();
    }
    for (Fields patch : fields.mappings("patchesJson6902")) {
      PatchSpec spec = patch(patch, PatchSpec.Source.PATCHES_JSON6902);
      if (spec.target() == null) {
        throw patch.invalid("target", "is required");
      }
      patches.add(spec);
      patch.rejectUnknown();
    }
    return List.copyOf(patches);
  }

  private static PatchSpec patch(Fields patch, PatchSpec.Source source) {
    String inline = patch.string("patch");
    String path = patch.string("path");
    if ((inline == null) == (path == null)) {
      throw patch.invalid("patch", "exactly one of 'patch' and 'path' must be set");
    }
    Map<String, Object> targetMap = patch.mapping("target");
    PatchSelector target = null;
    if (targetMap != null) {
      Fields t = new Fields(targetMap, patch.origin(), patch.where() + ".target");
      target =
          new PatchSelector(
              t.string("group"),
              t.string("version"),
              t.string("kind"),
              t.string("name"),
              t.string("namespace"),
              t.string("labelSelector"),
              t.string("annotationSelector"));
      t.rejectUnknown();
    }
    return new PatchSpec(source, inline, path, target, patch.origin());
  }

  private static List<Kustomization.ReplicaCount> replicas(Fields fields) {
    List<Kustomization.ReplicaCount> replicas = new ArrayList<>();
    for (Fields entry : fields.mappings("replicas")) {
      String name = entry.string("name");
      Object count = entry.raw("count");
      if (name == null || !(count instanceof Number number)) {
        throw entry.invalid("count", "needs a name and a numeric count");
      }
      replicas.add(new Kustomization.ReplicaCount(name, number.longValue()));
      entry.rejectUnknown();
    }
    return List.copyOf(replicas);
  }

  /** Top-level fields are easy to find in the text; pointing at their line helps the reader. */
  private static BuildFailure withLineOfField(BuildFailure failure, String text) {
    BuildError error = failure.error();
    Matcher quoted = Pattern.compile("'([A-Za-z0-9]+)").matcher(error.message());
    if (!quoted.find()) {
      return failure;
    }
    Matcher line =
        Pattern.compile("^" + Pattern.quote(quoted.group(1)) + "\\s*:", Pattern.MULTILINE)
            .matcher(text);
    if (!line.find()) {
      return failure;
    }
    int number = (int) text.substring(0, line.start()).chars().filter(c -> c == '\n').count() + 1;
    return new BuildFailure(new BuildError(error.kind(), error.file(), number, error.message()));
  }

}
