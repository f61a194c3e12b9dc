package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads {@code configMapGenerator}, {@code secretGenerator} and {@code generatorOptions}. */
final class GeneratorSpecParser {
  private GeneratorSpecParser() {}

  /** Options that apply to every generator of a kustomization unless the generator overrides them. */
  private record Options(
      Map<String, String> labels, Map<String, String> annotations, Boolean noHash, Boolean immutable) {
    static final Options NONE = new Options(Map.of(), Map.of(), null, null);

    Options overriddenBy(Options specific) {
      Map<String, String> mergedLabels = new LinkedHashMap<>(labels);
      mergedLabels.putAll(specific.labels);
      Map<String, String> mergedAnnotations = new LinkedHashMap<>(annotations);
      mergedAnnotations.putAll(specific.annotations);
      return new Options(
          mergedLabels,
          mergedAnnotations,
          specific.noHash != null ? specific.noHash : noHash,
          specific.immutable != null ? specific.immutable : immutable);
    }
  }

  static List<GeneratorSpec> generators(Fields fields) {
    Options global = options(fields.mapping("generatorOptions"), fields, "generatorOptions");
    List<GeneratorSpec> specs = new ArrayList<>();
    for (Fields entry : fields.mappings("configMapGenerator")) {
      specs.add(generator(entry, GeneratorSpec.Kind.CONFIG_MAP, global));
    }
    for (Fields entry : fields.mappings("secretGenerator")) {
      specs.add(generator(entry, GeneratorSpec.Kind.SECRET, global));
    }
    return List.copyOf(specs);
  }

  private static GeneratorSpec generator(Fields entry, GeneratorSpec.Kind kind, Options global) {
    String name = entry.string("name");
    if (name == null || name.isEmpty()) {
      throw entry.invalid("name", "is required");
    }
    String behaviorText = entry.string("behavior", "create");
    GeneratorSpec.Behavior behavior;
    try {
      behavior = GeneratorSpec.Behavior.valueOf(behaviorText.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw entry.invalid("behavior", "must be create, replace or merge");
    }
    List<String> envs = new ArrayList<>(entry.strings("envs"));
    String env = entry.string("env");
    if (env != null) {
      envs.add(env);
    }
    String type = kind == GeneratorSpec.Kind.SECRET ? entry.string("type", "Opaque") : null;
    Options options =
        global.overriddenBy(options(entry.mapping("options"), entry, entry.where() + ".options"));
    GeneratorSpec spec =
        new GeneratorSpec(
            kind,
            name,
            entry.string("namespace", ""),
            behavior,
            entry.strings("literals"),
            entry.strings("files"),
            List.copyOf(envs),
            type,
            Map.copyOf(options.labels()),
            Map.copyOf(options.annotations()),
            !Boolean.TRUE.equals(options.noHash()),
            Boolean.TRUE.equals(options.immutable()),
            entry.origin());
    entry.rejectUnknown();
    return spec;
  }

  private static Options options(Map<String, Object> map, Fields parent, String where) {
    if (map == null) {
      return Options.NONE;
    }
    Fields fields = new Fields(map, parent.origin(), where);
    Options options =
        new Options(
            fields.stringMap("labels"),
            fields.stringMap("annotations"),
            fields.bool("disableNameSuffixHash"),
            fields.bool("immutable"));
    fields.rejectUnknown();
    return options;
  }
}
