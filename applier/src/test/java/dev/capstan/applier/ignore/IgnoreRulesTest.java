package dev.capstan.applier.ignore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.capstan.applier.kustomize.PatchSelector;
import dev.capstan.kube.ObjectRef;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which pointers apply to which object, and the problems found when rules are compiled. */
class IgnoreRulesTest {
  private static final ObjectRef WEB = new ObjectRef("apps", "v1", "Deployment", "shop", "web");
  private static final ObjectRef SETTINGS =
      new ObjectRef("", "v1", "ConfigMap", "shop", "settings");

  @Test
  void aRuleWithoutTargetAppliesToEveryObject() {
    IgnoreRules rules = rules(rule(null, "/spec/replicas"));
    assertEquals(
        List.of(JsonPointer.parse("/spec/replicas")), rules.pointersFor(WEB, Map.of(), Map.of()));
    assertEquals(1, rules.pointersFor(SETTINGS, null, null).size());
  }

  @Test
  void targetFieldsAreRegularExpressionsMatchedInFull() {
    IgnoreRules rules =
        rules(
            rule(selector(null, "Deploy", null, null, null), "/a"),
            rule(selector(null, "Deploy.*", "w.b", null, null), "/b"),
            rule(selector("apps", null, null, "sh|op", null), "/c"),
            rule(selector("", "ConfigMap", null, null, null), "/d"));
    assertEquals(
        List.of(JsonPointer.parse("/b")), rules.pointersFor(WEB, Map.of(), Map.of()), "not /a");
    assertEquals(List.of(JsonPointer.parse("/d")), rules.pointersFor(SETTINGS, Map.of(), null));
  }

  @Test
  void labelAndAnnotationSelectorsChooseByMetadata() {
    IgnoreRules rules =
        rules(
            rule(new PatchSelector(null, null, null, null, null, "app=web", null), "/a"),
            rule(new PatchSelector(null, null, null, null, null, null, "scaler in (hpa)"), "/b"));
    assertEquals(
        List.of(JsonPointer.parse("/a")),
        rules.pointersFor(WEB, Map.of("app", "web"), Map.of("scaler", "keda")));
    assertEquals(
        List.of(JsonPointer.parse("/b")),
        rules.pointersFor(WEB, Map.of("app", "api"), Map.of("scaler", "hpa")));
  }

  @Test
  void aPointerGivenTwiceIsIgnoredOnce() {
    IgnoreRules rules = rules(rule(null, "/a", "/a"), rule(null, "/a", "/b"));
    assertEquals(2, rules.pointersFor(WEB, Map.of(), Map.of()).size());
  }

  @Test
  void problemsAreNamedByWhereTheyAreAndNeverQuoteTheSpec() {
    assertEquals(
        "spec.ignore[1].paths[0]: is not a JSON Pointer: it must start with '/'",
        problem(rule(null, "/ok"), rule(null, "secret-value")));
    assertEquals(
        "spec.ignore[0].target.kind: is not a regular expression (RE2 syntax)",
        problem(rule(selector(null, "(secret", null, null, null), "/a")));
    assertEquals("spec.ignore[0].paths: at least one path is required", problem(rule(null)));
    String labels =
        problem(rule(new PatchSelector(null, null, null, null, null, "a in secret", null), "/a"));
    assertFalse(labels.contains("secret"), labels);
    assertEquals(
        "spec.ignore[0].target.name: the regular expression is too large (repetitions multiply"
            + " its size)",
        problem(rule(selector(null, null, "((a{1000}){1000}){1000}", null, null), "/a")));
  }

  @Test
  void aHostilePatternIsMatchedInLinearTime() {
    IgnoreRules rules = rules(rule(selector(null, null, "(a+)+b", null, null), "/a"));
    ObjectRef hostile = new ObjectRef("", "v1", "ConfigMap", "shop", "a".repeat(5000) + "c");
    assertTimeoutPreemptively(
        Duration.ofSeconds(2),
        () -> assertEquals(List.of(), rules.pointersFor(hostile, Map.of(), Map.of())));
  }

  private static String problem(IgnoreRules.Rule... rules) {
    return assertThrows(IllegalArgumentException.class, () -> rules(rules)).getMessage();
  }

  private static IgnoreRules rules(IgnoreRules.Rule... rules) {
    return IgnoreRules.compile(List.of(rules), "spec.ignore");
  }

  private static IgnoreRules.Rule rule(PatchSelector target, String... paths) {
    return new IgnoreRules.Rule(List.of(paths), target);
  }

  private static PatchSelector selector(
      String group, String kind, String name, String namespace, String version) {
    return new PatchSelector(group, version, kind, name, namespace, null, null);
  }
}
