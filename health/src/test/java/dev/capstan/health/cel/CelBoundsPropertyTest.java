package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.capstan.health.Fixtures;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Generated expressions over generated objects: compiling and evaluating any of them ends within a
 * time bound, fails only in the expected ways, and no message ever holds the secret the object
 * carries in its fields, list elements and map keys.
 *
 * <p>The expressions combine the functions that allocate or loop (replace, split, join, map,
 * flatten, matches, sets, comparisons, conversions) around fields that hold long strings and long
 * lists, so that many of them run into the limits; the secret is random lowercase text behind a
 * prefix ({@code qz}) that no generated expression contains.
 */
class CelBoundsPropertyTest {
  // A safety net only: the limits under test are costs, not time; a loaded machine is slow.
  private static final Duration BOUND = Duration.ofSeconds(10);
  private static final CelHealthEnvironment ENVIRONMENT = new CelHealthEnvironment();

  /** A generated object and the secret it holds. */
  record Case(Map<String, Object> object, String secret) {
    /** The secret in the forms an expression can turn it into. */
    List<String> secretForms() {
      return List.of(
          secret,
          secret.toUpperCase(Locale.ROOT),
          new StringBuilder(secret).reverse().toString(),
          secret.substring(2, 14));
    }
  }

  @Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
  void compilingAndEvaluatingFailOnlyWithTheirOwnErrorsWithinTheBound(
      @ForAll("expressions") String expression, @ForAll("cases") Case c) {
    CompiledExpr compiled;
    try {
      compiled = ENVIRONMENT.compile(expression);
    } catch (CelHealthEnvironment.CelCompileException e) {
      assertNoSecret(e.getMessage(), c);
      Statistics.collect("does not compile");
      return;
    }
    String message =
        assertTimeoutPreemptively(
            BOUND,
            () -> {
              try {
                return "evaluated to " + compiled.evaluate(c.object());
              } catch (CompiledExpr.ExprEvaluationException e) {
                return e.getMessage();
              }
            });
    assertNotNull(message);
    assertNoSecret(message, c);
    assertFalse(
        message.contains("evaluation failed ("),
        () -> "an exception cel-java does not raise for evaluation errors: " + message);
    Statistics.collect(outcome(message));
    Statistics.coverage(
        coverage -> {
          coverage.check("limit exceeded").percentage(p -> p >= 1);
          coverage.check("evaluated").percentage(p -> p >= 10);
        });
  }

  /** The generated expressions must reach the limits, and also evaluate normally. */
  private static String outcome(String message) {
    if (message.startsWith("evaluated to ")) {
      return "evaluated";
    }
    if (message.contains("limit exceeded") || message.contains("too large")) {
      return "limit exceeded";
    }
    return "other evaluation error";
  }

  @Property(tries = 100, edgeCases = EdgeCasesMode.NONE)
  void healthStatusOfAnyExpressionIsReportedWithinTheBoundWithoutTheSecret(
      @ForAll("expressions") String expression, @ForAll("cases") Case c) {
    HealthEvaluator evaluator;
    try {
      evaluator =
          HealthEvaluator.create(
              List.of(new HealthCheckExpr("example.com/v1", "Widget", expression, "", "")),
              BuiltinLibrary.none(),
              Fixtures.CLOCK);
    } catch (InvalidHealthCheckException e) {
      assertNoSecret(e.getMessage(), c);
      return;
    }
    ResourceStatus status = assertTimeoutPreemptively(BOUND, () -> evaluator.status(c.object()));
    assertNoSecret(status.message(), c);
    if (status.status() == Status.Unknown) {
      assertEquals("HealthCheckError", status.reason(), status::message);
    }
  }

  private static void assertNoSecret(String message, Case c) {
    for (String form : c.secretForms()) {
      assertFalse(message.contains(form), () -> "message holds the object's secret: " + message);
    }
  }

  @Provide
  Arbitrary<String> expressions() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, bool(3)),
        Tuple.of(1, str(2)),
        Tuple.of(1, integer(2)),
        Tuple.of(4, amplifying()));
  }

  /** Generated parts in the shapes that allocate or work the most. */
  private static Arbitrary<String> amplifying() {
    Arbitrary<String> s =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.of("spec.big", "'xxxxxxxxxx'")), Tuple.of(2, str(1)));
    Arbitrary<String> l = list(1);
    Arbitrary<Integer> times = Arbitraries.integers().between(4, 9);
    Arbitrary<String> regex =
        Arbitraries.of(
            "'((a{1000}){1000}){1000}'", "'(x|y)*z'", "'[a-z]{500}'", "'^x+$'", "'(a+)+b'");
    return Arbitraries.oneOf(
        Combinators.combine(s, times)
            .as((a, n) -> a + ".replace('x', 'xxxxxxxxxx')".repeat(n) + ".size() > 0"),
        Combinators.combine(l, s, s)
            .as((a, b, c) -> a + ".map(w, " + b + ").join(" + c + ") != ''"),
        s.map(b -> "spec.items.map(w, " + b + " + " + b + ").size() > 0"),
        Combinators.combine(l, l).as((a, b) -> a + ".map(w, " + b + ").flatten().size() > 0"),
        s.map(a -> a + ".split('').map(c, c + c).size() > 0"),
        Combinators.combine(l, l).as((a, b) -> "sets.intersects(" + a + ", " + b + ")"),
        Combinators.combine(l, l).as((a, b) -> a + ".all(w, " + b + " == " + b + ")"),
        Combinators.combine(s, regex).as((a, r) -> a + ".matches(" + r + ")"));
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<String> secrets =
        Arbitraries.strings().withCharRange('a', 'z').ofLength(16).map(s -> "qz" + s);
    Arbitrary<Integer> bigLengths = Arbitraries.of(0, 10, 1_000, 100_000, 1_000_000);
    Arbitrary<Integer> listSizes = Arbitraries.of(0, 3, 100, 5_000);
    Arbitrary<Long> numbers = Arbitraries.of(0L, 1L, -1L, 7L, 100_000L, Long.MAX_VALUE);
    Arbitrary<Integer> shapes = Arbitraries.integers().between(0, 31);
    Arbitrary<Integer> texts = Arbitraries.integers().between(0, 9);
    return Combinators.combine(secrets, bigLengths, listSizes, numbers, shapes, texts)
        .as(CelBoundsPropertyTest::widget);
  }

  private static Case widget(
      String secret, int bigLength, int listSize, long number, int shape, int text) {
    List<Object> items = new ArrayList<>();
    for (long i = 0; i < listSize; i++) {
      items.add(i);
    }
    String[] strings = {
      "",
      "a",
      "Ready",
      "a-b-c",
      "123",
      "2024-01-01T00:00:00Z",
      "1s",
      "aGVsbG8=",
      secret,
      secret + "-" + secret
    };
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("secret", secret);
    spec.put("big", "x".repeat(bigLength));
    spec.put("n", number);
    spec.put("items", items);
    spec.put("words", List.of("a", secret, "b-" + secret));
    spec.put("nested", List.of(List.of(1L, 2L), List.of(secret), List.of()));
    spec.put("flag", (shape & 1) == 0);
    // Some objects lack fields, so that missing keys and attributes are exercised too.
    if (shape % 4 != 3) {
      spec.put("s", strings[text]);
    }
    if (shape % 8 != 7) {
      spec.put("labels", Map.of(secret, secret, "k", secret));
    }
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("apiVersion", "example.com/v1");
    object.put("kind", "Widget");
    object.put("metadata", Map.of("name", secret, "namespace", "default"));
    if (shape != 31) {
      object.put("spec", spec);
    }
    return new Case(object, secret);
  }

  private static Arbitrary<String> str(int depth) {
    Arbitrary<String> leaf =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.of("spec.big", "'xxxxxxxxxx'", "'x'")),
            Tuple.of(
                4,
                Arbitraries.of(
                    "spec.s",
                    "spec.secret",
                    "'a'",
                    "'-'",
                    "''",
                    "string(spec.n)",
                    "spec.labels.k",
                    "metadata.name")));
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<String> s = str(depth - 1);
    Arbitrary<String> l = list(depth - 1);
    Arbitrary<String> i = integer(depth - 1);
    return Arbitraries.frequencyOf(
        Tuple.of(4, leaf),
        Tuple.of(
            2, Combinators.combine(s, s, s).as((a, b, c) -> a + ".replace(" + b + ", " + c + ")")),
        Tuple.of(3, Combinators.combine(s, s).as((a, c) -> a + ".replace('x', " + c + ")")),
        Tuple.of(
            1,
            Combinators.combine(s, s, s, i)
                .as((a, b, c, n) -> a + ".replace(" + b + ", " + c + ", " + n + ")")),
        Tuple.of(2, Combinators.combine(s, s).as((a, b) -> "(" + a + " + " + b + ")")),
        Tuple.of(1, s.map(a -> a + ".upperAscii()")),
        Tuple.of(2, Combinators.combine(l, s).as((a, b) -> a + ".join(" + b + ")")),
        Tuple.of(1, l.map(a -> a + ".join()")),
        Tuple.of(1, Combinators.combine(s, i).as((a, n) -> a + ".substring(" + n + ")")),
        Tuple.of(1, Combinators.combine(s, i).as((a, n) -> a + ".charAt(" + n + ")")),
        Tuple.of(1, i.map(n -> "string(" + n + ")")),
        Tuple.of(1, s.map(a -> "base64.encode(bytes(" + a + "))")),
        Tuple.of(1, s.map(a -> "string(base64.decode(" + a + "))")),
        Tuple.of(1, s.map(a -> "strings.quote(" + a + ")")),
        Tuple.of(1, s.map(a -> a + ".reverse().trim()")),
        Tuple.of(1, Combinators.combine(l, i).as((a, n) -> "string(" + a + "[" + n + "])")),
        Tuple.of(1, s.map(a -> "spec.labels[" + a + "]")));
  }

  private static Arbitrary<String> list(int depth) {
    Arbitrary<String> leaf =
        Arbitraries.of(
            "spec.items",
            "spec.words",
            "spec.nested",
            "[]",
            "['a', spec.s]",
            "[1, 2]",
            "spec.labels.map(k, k)");
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<String> s = str(depth - 1);
    Arbitrary<String> l = list(depth - 1);
    Arbitrary<String> i = integer(depth - 1);
    Arbitrary<String> b = bool(depth - 1);
    return Arbitraries.frequencyOf(
        Tuple.of(4, leaf),
        Tuple.of(2, Combinators.combine(s, s).as((a, c) -> a + ".split(" + c + ")")),
        Tuple.of(
            1, Combinators.combine(s, s, i).as((a, c, n) -> a + ".split(" + c + ", " + n + ")")),
        Tuple.of(2, Combinators.combine(l, s).as((a, c) -> a + ".map(w, " + c + ")")),
        Tuple.of(2, s.map(c -> "spec.items.map(w, " + c + ")")),
        Tuple.of(1, Combinators.combine(l, s).as((a, c) -> a + ".map(w, string(w) + " + c + ")")),
        Tuple.of(2, Combinators.combine(l, l).as((a, c) -> a + ".map(w, " + c + ")")),
        Tuple.of(1, Combinators.combine(l, l).as((a, c) -> "(" + a + " + " + c + ")")),
        Tuple.of(1, Combinators.combine(l, b).as((a, c) -> a + ".filter(w, " + c + ")")),
        Tuple.of(2, l.map(a -> a + ".flatten()")),
        Tuple.of(1, Combinators.combine(l, i).as((a, n) -> a + ".flatten(" + n + ")")),
        Tuple.of(1, l.map(a -> a + ".sort()")),
        Tuple.of(1, l.map(a -> a + ".distinct()")),
        Tuple.of(1, l.map(a -> a + ".reverse()")),
        Tuple.of(1, l.map(a -> "optional.unwrap(" + a + ")")),
        Tuple.of(
            1, Combinators.combine(l, i, i).as((a, m, n) -> a + ".slice(" + m + ", " + n + ")")),
        Tuple.of(1, Combinators.combine(s, s).as((a, c) -> "[" + a + ", " + c + "]")));
  }

  private static Arbitrary<String> integer(int depth) {
    Arbitrary<String> leaf =
        Arbitraries.of(
            "spec.n", "0", "1", "-1", "1000000", "size(spec.items)", "9223372036854775807");
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<String> s = str(depth - 1);
    Arbitrary<String> l = list(depth - 1);
    Arbitrary<String> i = integer(depth - 1);
    return Arbitraries.frequencyOf(
        Tuple.of(4, leaf),
        Tuple.of(2, s.map(a -> "size(" + a + ")")),
        Tuple.of(2, l.map(a -> a + ".size()")),
        Tuple.of(1, Combinators.combine(i, i).as((a, b) -> "(" + a + " + " + b + ")")),
        Tuple.of(1, Combinators.combine(i, i).as((a, b) -> "(" + a + " * " + b + ")")),
        Tuple.of(1, Combinators.combine(i, i).as((a, b) -> "(" + a + " / " + b + ")")),
        Tuple.of(1, Combinators.combine(i, i).as((a, b) -> "(" + a + " % " + b + ")")),
        Tuple.of(2, s.map(a -> "int(" + a + ")")),
        Tuple.of(1, Combinators.combine(s, s).as((a, b) -> a + ".indexOf(" + b + ")")),
        Tuple.of(1, Combinators.combine(i, i).as((a, b) -> "math.greatest(" + a + ", " + b + ")")),
        Tuple.of(1, l.map(a -> "math.least(" + a + ")")));
  }

  private static Arbitrary<String> bool(int depth) {
    Arbitrary<String> leaf =
        Arbitraries.of("true", "false", "has(spec.s)", "spec.flag", "has(spec.labels.k)");
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<String> s = str(depth - 1);
    Arbitrary<String> l = list(depth - 1);
    Arbitrary<String> i = integer(depth - 1);
    Arbitrary<String> b = bool(depth - 1);
    return Arbitraries.frequencyOf(
        Tuple.of(3, leaf),
        Tuple.of(2, Combinators.combine(s, s).as((a, c) -> a + " == " + c)),
        Tuple.of(1, Combinators.combine(l, l).as((a, c) -> a + " == " + c)),
        Tuple.of(2, Combinators.combine(s, s).as((a, c) -> a + ".matches(" + c + ")")),
        Tuple.of(1, Combinators.combine(s, s).as((a, c) -> "matches(" + a + ", " + c + ")")),
        Tuple.of(1, Combinators.combine(s, l).as((a, c) -> a + " in " + c)),
        Tuple.of(1, Combinators.combine(i, l).as((a, c) -> a + " in " + c)),
        Tuple.of(1, Combinators.combine(l, l).as((a, c) -> "sets.contains(" + a + ", " + c + ")")),
        Tuple.of(
            1, Combinators.combine(l, l).as((a, c) -> "sets.intersects(" + a + ", " + c + ")")),
        Tuple.of(
            1, Combinators.combine(l, l).as((a, c) -> "sets.equivalent(" + a + ", " + c + ")")),
        Tuple.of(1, Combinators.combine(b, b).as((a, c) -> "(" + a + " && " + c + ")")),
        Tuple.of(1, Combinators.combine(b, b).as((a, c) -> "(" + a + " || " + c + ")")),
        Tuple.of(1, b.map(a -> "!(" + a + ")")),
        Tuple.of(2, Combinators.combine(l, b).as((a, c) -> a + ".all(w, " + c + ")")),
        Tuple.of(1, Combinators.combine(l, b).as((a, c) -> a + ".exists(w, " + c + ")")),
        Tuple.of(1, Combinators.combine(l, b).as((a, c) -> a + ".exists_one(w, " + c + ")")),
        Tuple.of(1, Combinators.combine(i, i).as((a, c) -> a + " > " + c)),
        Tuple.of(1, Combinators.combine(s, s).as((a, c) -> a + ".startsWith(" + c + ")")),
        Tuple.of(1, Combinators.combine(s, s).as((a, c) -> a + ".contains(" + c + ")")),
        Tuple.of(1, s.map(a -> "timestamp(" + a + ") > timestamp(0)")),
        Tuple.of(1, s.map(a -> "duration(" + a + ") > duration('1s')")),
        Tuple.of(1, s.map(a -> "bool(" + a + ")")),
        Tuple.of(
            1, Combinators.combine(s, s).as((a, c) -> "{" + a + ": 1, " + c + ": 2}.size() == 2")),
        Tuple.of(1, Arbitraries.just("spec.labels == spec.labels")));
  }
}
