package dev.capstan.applier.build;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Decides whether a resource is selected by a patch target; string fields are anchored regexes. */
final class TargetMatcher {
  private final Pattern group;
  private final Pattern version;
  private final Pattern kind;
  private final Pattern name;
  private final Pattern namespace;
  private final LabelSelector labels;
  private final LabelSelector annotations;

  TargetMatcher(PatchSelector selector, Origin origin) {
    this.group = regex(selector.group(), origin);
    this.version = regex(selector.version(), origin);
    this.kind = regex(selector.kind(), origin);
    this.name = regex(selector.name(), origin);
    this.namespace = regex(selector.namespace(), origin);
    this.labels = selector(selector.labelSelector(), origin, "labelSelector");
    this.annotations = selector(selector.annotationSelector(), origin, "annotationSelector");
  }

  boolean matches(Resource resource) {
    return matches(group, resource.group())
        && matches(version, resource.version())
        && matches(kind, resource.kind())
        && matches(namespace, resource.namespace())
        && (name == null || resource.allNames().stream().anyMatch(n -> name.matcher(n).matches()))
        && (labels == null || labels.matches(resource.labels()))
        && (annotations == null || annotations.matches(resource.annotations()));
  }

  private static boolean matches(Pattern pattern, String value) {
    return pattern == null || pattern.matcher(value).matches();
  }

  private static Pattern regex(String value, Origin origin) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return Pattern.compile(value);
    } catch (PatternSyntaxException e) {
      throw new BuildFailure(
          BuildErrorKind.INVALID_PATCH, origin, "invalid target pattern '" + value + "'");
    }
  }

  private static LabelSelector selector(String value, Origin origin, String where) {
    return value == null || value.isBlank() ? null : LabelSelector.parse(value, origin, where);
  }
}
