package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Kubernetes label selector in its string form ({@code a=b,c!=d,e in (x,y),f,!g}). */
final class LabelSelector {
  private static final Pattern SET_EXPRESSION =
      Pattern.compile("^\\s*([^\\s!=,()]+)\\s+(in|notin)\\s*\\(([^)]*)\\)\\s*$");
  private static final Pattern EQUALITY =
      Pattern.compile("^\\s*([^\\s!=,()]+)\\s*(==|=|!=)\\s*([^\\s!=,()]*)\\s*$");
  private static final Pattern EXISTS = Pattern.compile("^\\s*(!?)\\s*([^\\s!=,()]+)\\s*$");

  private final List<Predicate<Map<String, Object>>> requirements;

  private LabelSelector(List<Predicate<Map<String, Object>>> requirements) {
    this.requirements = requirements;
  }

  /** Parses a selector; {@code where} names it in the error for a malformed one. */
  static LabelSelector parse(String selector, Origin origin, String where) {
    List<Predicate<Map<String, Object>>> requirements = new ArrayList<>();
    for (String term : splitTerms(selector)) {
      if (term.isBlank()) {
        continue;
      }
      requirements.add(requirement(term, origin, where));
    }
    return new LabelSelector(List.copyOf(requirements));
  }

  boolean matches(Map<String, Object> labels) {
    Map<String, Object> present = labels == null ? Map.of() : labels;
    return requirements.stream().allMatch(r -> r.test(present));
  }

  private static Predicate<Map<String, Object>> requirement(String term, Origin origin, String where) {
    Matcher set = SET_EXPRESSION.matcher(term);
    if (set.matches()) {
      String key = set.group(1);
      Set<String> values = Set.of(set.group(3).trim().split("\\s*,\\s*"));
      boolean in = set.group(2).equals("in");
      return labels -> in == (labels.containsKey(key) && values.contains(str(labels.get(key))));
    }
    Matcher equality = EQUALITY.matcher(term);
    if (equality.matches()) {
      String key = equality.group(1);
      String value = equality.group(3);
      boolean equal = !equality.group(2).equals("!=");
      return labels -> equal == value.equals(str(labels.get(key)));
    }
    Matcher exists = EXISTS.matcher(term);
    if (exists.matches()) {
      String key = exists.group(2);
      boolean negated = !exists.group(1).isEmpty();
      return labels -> negated != labels.containsKey(key);
    }
    throw new BuildFailure(
        BuildErrorKind.INVALID_PATCH, origin, where + ": invalid selector term '" + term.trim() + "'");
  }

  /** Splits on commas that are not inside a set's parentheses. */
  private static List<String> splitTerms(String selector) {
    List<String> terms = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        terms.add(selector.substring(start, i));
        start = i + 1;
      }
    }
    terms.add(selector.substring(start));
    return terms;
  }

  private static String str(Object value) {
    return value == null ? null : String.valueOf(value);
  }
}
