package dev.capstan.applier.ignore;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.capstan.applier.kustomize.PatchSelector;
import dev.capstan.health.cel.RegexSize;
import dev.capstan.kube.ObjectRef;
import java.util.Map;

/**
 * The objects a target selector names, as a patch's target names them: group, version, kind, name
 * and namespace are regular expressions that must match in full (RE2 syntax, matched in linear
 * time); the label and annotation selectors use Kubernetes label-selector syntax. An absent field
 * matches anything.
 */
final class ObjectSelector {

  /** The longest regular expression read, in characters. */
  public static final int MAX_PATTERN_LENGTH = 1024;

  /** The largest compiled program allowed, in RE2 instructions. */
  static final long MAX_PROGRAM_SIZE = 20_000;

  /** Selects every object. */
  public static final ObjectSelector ALL =
      new ObjectSelector(null, null, null, null, null, null, null);

  private final Pattern group;
  private final Pattern version;
  private final Pattern kind;
  private final Pattern name;
  private final Pattern namespace;
  private final LabelSelector labels;
  private final LabelSelector annotations;

  private ObjectSelector(
      Pattern group,
      Pattern version,
      Pattern kind,
      Pattern name,
      Pattern namespace,
      LabelSelector labels,
      LabelSelector annotations) {
    this.group = group;
    this.version = version;
    this.kind = kind;
    this.name = name;
    this.namespace = namespace;
    this.labels = labels;
    this.annotations = annotations;
  }

  /**
   * Compiles a selector; a problem is reported as an {@link IllegalArgumentException} whose message
   * starts with the field's name (e.g. {@code kind: is not a regular expression}).
   */
  public static ObjectSelector compile(PatchSelector selector) {
    if (selector == null) {
      return ALL;
    }
    return new ObjectSelector(
        pattern("group", selector.group()),
        pattern("version", selector.version()),
        pattern("kind", selector.kind()),
        pattern("name", selector.name()),
        pattern("namespace", selector.namespace()),
        labels("labelSelector", selector.labelSelector()),
        labels("annotationSelector", selector.annotationSelector()));
  }

  /** Whether the object (its identity, labels and annotations) is selected. */
  public boolean matches(
      ObjectRef ref, Map<String, String> objectLabels, Map<String, String> objectAnnotations) {
    return matches(group, ref.group())
        && matches(version, ref.version())
        && matches(kind, ref.kind())
        && matches(name, ref.name())
        && matches(namespace, ref.namespace())
        && (labels == null || labels.matches(objectLabels))
        && (annotations == null || annotations.matches(objectAnnotations));
  }

  private static boolean matches(Pattern pattern, String value) {
    return pattern == null || pattern.matches(value == null ? "" : value);
  }

  private static Pattern pattern(String field, String regex) {
    if (regex == null || regex.isEmpty()) {
      return null;
    }
    if (regex.length() > MAX_PATTERN_LENGTH) {
      throw new IllegalArgumentException(
          field + ": is longer than " + MAX_PATTERN_LENGTH + " characters");
    }
    if (RegexSize.estimate(regex, MAX_PROGRAM_SIZE) > MAX_PROGRAM_SIZE) {
      throw new IllegalArgumentException(
          field + ": the regular expression is too large (repetitions multiply its size)");
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(field + ": is not a regular expression (RE2 syntax)");
    }
  }

  private static LabelSelector labels(String field, String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return LabelSelector.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage());
    }
  }
}
