package dev.capstan.applier.ignore;

import dev.capstan.applier.kustomize.PatchSelector;
import dev.capstan.kube.ObjectRef;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fields left out of drift detection and of the apply: JSON Pointers, each for the objects a
 * selector names (a Kustomization's {@code spec.ignore}). Compiled once per reconcile; every
 * problem is found at compile time and named by where it is ({@code spec.ignore[1].paths[0]: …}).
 */
public final class IgnoreRules {

  /** No field is ignored. */
  public static final IgnoreRules NONE = new IgnoreRules(List.of());

  /** One rule as the API writes it: paths, and the objects they apply to (null: all). */
  public record Rule(List<String> paths, PatchSelector target) {
    public Rule {
      paths = paths == null ? List.of() : List.copyOf(paths);
    }
  }

  private record Compiled(ObjectSelector selector, List<JsonPointer> pointers) {}

  private final List<Compiled> rules;

  private IgnoreRules(List<Compiled> rules) {
    this.rules = List.copyOf(rules);
  }

  /**
   * Compiles rules; {@code field} names them in messages (e.g. {@code spec.ignore}).
   *
   * @throws IllegalArgumentException naming the rule, the field and what is wrong
   */
  public static IgnoreRules compile(List<Rule> rules, String field) {
    if (rules == null || rules.isEmpty()) {
      return NONE;
    }
    List<Compiled> compiled = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      Rule rule = rules.get(i);
      String at = field + "[" + i + "]";
      if (rule == null || rule.paths().isEmpty()) {
        throw new IllegalArgumentException(at + ".paths: at least one path is required");
      }
      List<JsonPointer> pointers = new ArrayList<>();
      for (int p = 0; p < rule.paths().size(); p++) {
        try {
          pointers.add(JsonPointer.parse(rule.paths().get(p)));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(at + ".paths[" + p + "]: " + e.getMessage());
        }
      }
      try {
        compiled.add(new Compiled(ObjectSelector.compile(rule.target()), pointers));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(at + ".target." + e.getMessage());
      }
    }
    return new IgnoreRules(compiled);
  }

  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The pointers ignored for one object, in the order the rules give them, without repeats. */
  public List<JsonPointer> pointersFor(
      ObjectRef ref, Map<String, String> labels, Map<String, String> annotations) {
    if (rules.isEmpty()) {
      return List.of();
    }
    Set<JsonPointer> pointers = new LinkedHashSet<>();
    for (Compiled rule : rules) {
      if (rule.selector().matches(ref, labels, annotations)) {
        pointers.addAll(rule.pointers());
      }
    }
    return List.copyOf(pointers);
  }
}
