package dev.capstan.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BoundedYamlTest {
  private final BoundedYaml yaml = new BoundedYaml();

  @Test
  void everyDocumentComesWithTheLineItStartsOn() throws Exception {
    List<BoundedYaml.Document> docs = yaml.readAll("a: 1\n---\n\n# note\nb: [x, y]\n---\n");

    assertEquals(3, docs.size());
    assertEquals(new BoundedYaml.Document(1, Map.of("a", 1)), docs.get(0));
    assertEquals(5, docs.get(1).line());
    assertEquals(Map.of("b", List.of("x", "y")), docs.get(1).value());
    assertEquals(null, docs.get(2).value());
  }

  @Test
  void scalarsResolveByTheCoreSchema() throws Exception {
    Object doc = yaml.readOne("{t: true, y: yes, n: ~, i: 12, f: 1.5, o: 0o17, s: '12'}");

    assertEquals(
        Map.of("t", true, "y", "yes", "i", 12, "f", 1.5, "o", 15, "s", "12"),
        withoutNulls((Map<?, ?>) doc));
    assertTrue(((Map<?, ?>) doc).containsKey("n"));
  }

  @Test
  void nestingPastTheBoundIsRefusedWithItsPlaceNotAStackOverflow() {
    String deep = "x: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n";

    BoundedYaml.YamlProblem problem =
        assertThrows(BoundedYaml.YamlProblem.class, () -> yaml.readAll(deep));

    assertEquals("nested deeper than " + BoundedYaml.MAX_DEPTH + " levels", problem.problem());
    assertEquals(1, problem.line());
    assertEquals(1, problem.document());
  }

  @Test
  void aStreamPastItsNodeBoundIsRefusedWhileParsed() throws Exception {
    BoundedYaml bounded = new BoundedYaml(1_000);
    String longList = "a: [" + "1,".repeat(1_000_000) + "1]\n";

    BoundedYaml.YamlProblem problem =
        assertThrows(BoundedYaml.YamlProblem.class, () -> bounded.readAll(longList));

    assertEquals("more than 1000 nodes", problem.problem());
    assertEquals(1, problem.line());
    // At the bound: the mapping, its key, the sequence and its two items.
    assertEquals(Map.of("a", List.of(1, 2)), bounded.readOne("a: [1, 2]"));
    assertEquals(Map.of("a", List.of(1, 2)), new BoundedYaml(5).readOne("a: [1, 2]"));
    assertThrows(BoundedYaml.YamlProblem.class, () -> new BoundedYaml(4).readOne("a: [1, 2]"));
  }

  @Test
  void nestingAtTheBoundIsRead() throws Exception {
    int depth = BoundedYaml.MAX_DEPTH;
    Object doc = yaml.readOne("[".repeat(depth) + "]".repeat(depth));

    for (int i = 1; i < depth; i++) {
      doc = ((List<?>) doc).get(0);
    }
    assertEquals(List.of(), doc);
  }

  @Test
  void aliasesThatExpandToABillionNodesAreRefused() {
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'j'; c++) {
      char prev = (char) (c - 1);
      bomb.append(c)
          .append(": &")
          .append(c)
          .append(" [")
          .append(String.join(", ", Collections.nCopies(10, "*" + prev)))
          .append("]\n");
    }

    BoundedYaml.YamlProblem problem =
        assertThrows(BoundedYaml.YamlProblem.class, () -> yaml.readAll(bomb.toString()));
    assertEquals(
        "aliases expand to more than " + BoundedYaml.MAX_ALIAS_EXPANSION + " nodes",
        problem.problem());
  }

  @Test
  void aFewAliasesAreRead() throws Exception {
    Object doc = yaml.readOne("base: &b {x: 1}\ncopy: *b\n");

    assertEquals(Map.of("base", Map.of("x", 1), "copy", Map.of("x", 1)), doc);
  }

  @Test
  void problemsNeverQuoteTheInput() {
    for (String bad :
        List.of(
            "a: *SECRETNAME\n",
            "k: 1\nk: SECRET\nSECRET: x\nSECRET: y\n",
            "a: 'SECRET\n",
            "a: \"SECRET\n",
            "- SECRET: [\n",
            "a: !SECRET x\n")) {
      BoundedYaml.YamlProblem problem =
          assertThrows(BoundedYaml.YamlProblem.class, () -> yaml.readAll(bad));
      assertTrue(!problem.problem().contains("SECRET"), problem.problem());
    }
  }

  @Test
  void duplicateKeysAreRefusedWithTheDocumentTheyAreIn() {
    BoundedYaml.YamlProblem problem =
        assertThrows(BoundedYaml.YamlProblem.class, () -> yaml.readAll("a: 1\n---\nb: 1\nb: 2\n"));

    assertEquals(2, problem.document());
    assertEquals(4, problem.line());
  }

  @Test
  void readOneRefusesASecondDocument() {
    BoundedYaml.YamlProblem problem =
        assertThrows(BoundedYaml.YamlProblem.class, () -> yaml.readOne("a: 1\n---\nb: 2\n"));

    assertTrue(problem.problem().contains("expected one document"), problem.problem());
  }

  private static Map<Object, Object> withoutNulls(Map<?, ?> map) {
    Map<Object, Object> copy = new HashMap<>();
    map.forEach(
        (k, v) -> {
          if (v != null) {
            copy.put(k, v);
          }
        });
    return copy;
  }
}
