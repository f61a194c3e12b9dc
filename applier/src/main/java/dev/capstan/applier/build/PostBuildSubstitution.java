package dev.capstan.applier.build;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Post-build variable substitution of a Kustomization: variables from {@code substituteFrom}
 * (later entries win) overridden by {@code substitute}, applied to the YAML text of every object
 * not annotated {@code kustomize.toolkit.fluxcd.io/substitute: disabled} (or the
 * {@code kustomize.capstan.dev} equivalent).
 */
final class PostBuildSubstitution {
  private static final List<String> DISABLE_ANNOTATIONS =
      List.of("kustomize.toolkit.fluxcd.io/substitute", "kustomize.capstan.dev/substitute");

  private final YamlReader yaml;
  private final ManifestYaml writer;

  PostBuildSubstitution(YamlReader yaml, ManifestYaml writer) {
    this.yaml = yaml;
    this.writer = writer;
  }

  void apply(List<Resource> resources, BuildOptions options) {
    if (!options.hasSubstitution()) {
      return;
    }
    VariableSubstitution substitution = new VariableSubstitution(variables(options));
    for (Resource resource : resources) {
      if (!disabled(resource)) {
        substitute(resource, substitution);
      }
    }
  }

  private static Map<String, String> variables(BuildOptions options) {
    Map<String, String> variables = new LinkedHashMap<>();
    for (SubstituteReference reference : options.substituteFrom()) {
      Optional<Map<String, String>> values = options.substitutionValues().find(reference);
      if (values.isEmpty() && !reference.optional()) {
        throw new BuildFailure(
            BuildErrorKind.SUBSTITUTION, Origin.of(""),
            "postBuild.substituteFrom: " +
            reference.kind().kubernetesKind() + " '" + reference.name() + "' not found");
      }
      values.ifPresent(variables::putAll);
    }
    variables.putAll(options.substitute());
    for (String name : variables.keySet()) {
      if (!VariableSubstitution.VALID_NAME.matcher(name).matches()) {
        throw new BuildFailure(
            BuildErrorKind.SUBSTITUTION, Origin.of(""),
            "postBuild.substitute: " +
            "variable name '" + name + "' is invalid: it must match " + VariableSubstitution.VALID_NAME);
      }
    }
    return variables;
  }

  private static boolean disabled(Resource resource) {
    Map<String, Object> annotations = resource.annotations();
    return annotations != null
        && DISABLE_ANNOTATIONS.stream().anyMatch(key -> "disabled".equals(annotations.get(key)));
  }

  private void substitute(Resource resource, VariableSubstitution substitution) {
    String text = writer.writeObject(resource.object(), yaml::isQuotedVariable);
    String substituted;
    try {
      substituted = substitution.apply(text);
    } catch (VariableSubstitution.SyntaxError e) {
      throw new BuildFailure(
          BuildErrorKind.SUBSTITUTION, resource.origin(),
          "in " + resource.describe() + ": " + e.getMessage());
    }
    if (substituted.equals(text)) {
      return;
    }
    Map<String, Object> replaced;
    try {
      replaced = yaml.readMapping(substituted, resource.origin().file());
    } catch (BuildFailure e) {
      throw new BuildFailure(
          BuildErrorKind.SUBSTITUTION, resource.origin(),
          "in " + resource.describe() + ": the substituted values do not form valid YAML");
    }
    resource.object().clear();
    resource.object().putAll(replaced);
  }
}
