package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.Fixtures;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile expressions and objects end as an Unknown status naming the limit and the position, fast
 * and without exhausting the heap; ordinary uses of the same functions are unaffected.
 */
class CelLimitsTest {
  // A safety net against a runaway evaluation only: the limits under test are costs, not time.
  // It failed at 10 s on a loaded two-core machine, where the heap of a 1 MB string is slow too.
  private static final Duration FAST = Duration.ofSeconds(60);
  private static final String SECRET = "s3cr3t-qmwnebrvtcyx";
  private static final String BIG = "x".repeat(1_000_000);

  private static ResourceStatus statusOf(String current, Map<String, Object> object) {
    HealthEvaluator evaluator =
        HealthEvaluator.create(
            List.of(new HealthCheckExpr("example.com/v1", "Widget", current, "", "")),
            BuiltinLibrary.none(),
            Fixtures.CLOCK);
    return assertTimeoutPreemptively(FAST, () -> evaluator.status(object));
  }

  /** A Widget whose spec holds a 1,000,000-character string, lists, and a secret in places. */
  private static Map<String, Object> widget() {
    List<Object> many = new ArrayList<>();
    List<Object> others = new ArrayList<>();
    for (long i = 0; i < 5_000; i++) {
      many.add(i);
      others.add(-i - 1);
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("big", BIG);
    spec.put("items", many.subList(0, 100));
    spec.put("many", many);
    spec.put("others", others);
    spec.put("secret", SECRET);
    spec.put("labels", Map.of(SECRET, SECRET));
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("apiVersion", "example.com/v1");
    object.put("kind", "Widget");
    object.put("metadata", Map.of("name", "w", "namespace", "default"));
    object.put("spec", spec);
    return object;
  }

  private static void assertLimitError(ResourceStatus status, String limit) {
    assertEquals(Status.Unknown, status.status(), status::message);
    assertEquals("HealthCheckError", status.reason());
    assertTrue(
        status.message().startsWith("failed to evaluate the CEL expression '"), status::message);
    assertTrue(status.message().contains(limit), status::message);
    assertTrue(status.message().matches("(?s).* \\(at <input>:\\d+\\)$"), status::message);
    assertFalse(status.message().contains("xxxxxxxxxxxxxxxxxxxx"), "no data from the object");
    assertFalse(status.message().contains(SECRET), "no data from the object");
  }

  @Test
  void replaceChainOf257CharactersFailsWithTheSizeLimitFastInsteadOfExhaustingTheHeap() {
    // Ten characters, each replaced by ten, nine times: 10^10 characters at the end.
    String chain = "'xxxxxxxxxx'" + ".replace('x','xxxxxxxxxx')".repeat(9) + ".size() > 0";
    assertEquals(257, chain.length());
    assertLimitError(statusOf(chain, widget()), "size limit exceeded");
  }

  @Test
  void mapOverALongStringFieldIsStoppedByTheSizeLimit() {
    for (String copy : List.of("spec.big + '!'", "spec.big.reverse()", "spec.big.upperAscii()")) {
      assertLimitError(
          statusOf("spec.items.map(i, " + copy + ").size() > 0", widget()), "size limit exceeded");
    }
  }

  @Test
  void splittingALongStringIntoCharactersIsRefusedBeforeItRuns() {
    assertLimitError(
        statusOf("spec.big.split('').map(c, c + c).size() > 0", widget()), "size limit exceeded");
  }

  @Test
  void joiningManyReferencesToALongStringIsRefusedBeforeItRuns() {
    assertLimitError(
        statusOf("spec.items.map(i, spec.big).join().size() > 0", widget()), "size limit exceeded");
  }

  @Test
  void flatteningAListOfReferencesToALongListIsRefusedBeforeItRuns() {
    assertLimitError(
        statusOf("spec.many.map(i, spec.many).flatten().size() > 0", widget()),
        "size limit exceeded");
  }

  @Test
  void sortingOrTakingTheGreatestOfLongStringsIsChargedForComparingThem() {
    assertLimitError(
        statusOf("spec.many.map(i, spec.big).sort().size() > 0", widget()), "cost limit exceeded");
    assertLimitError(
        statusOf("math.greatest(spec.many.map(i, spec.big) + [1]) == 1", widget()),
        "cost limit exceeded");
  }

  @Test
  void joiningListsPrintsThemAndIsChargedWhatItPrints() {
    assertLimitError(
        statusOf("spec.many.map(i, spec.many).join() != ''", widget()), "size limit exceeded");
  }

  @Test
  void aListFunctionThatFailsDoesNotPrintItsArguments() {
    // 5,000 references to a 1,000,000-character string: printed, 5 billion characters.
    for (String call :
        List.of(
            "(spec.many.map(i, spec.big) + [1]).slice(2, 1) == []",
            "(spec.many.map(i, spec.many) + [1]).slice(2, 1) == []",
            "(spec.many.map(i, spec.big) + [1]).flatten(-1) == []")) {
      ResourceStatus status = statusOf(call, widget());
      assertEquals(Status.Unknown, status.status(), call);
      assertTrue(
          status.message().matches("(?s).*: function \\S+ failed \\(at <input>:\\d+\\)$"),
          status::message);
    }
  }

  @Test
  void costLimitStopsAPairwiseComparisonOfTwoLongListsThatDoesNotLoop() {
    // 5,000 x 5,000 comparisons in one call: refused before it starts.
    assertLimitError(
        statusOf("sets.intersects(spec.many, spec.others)", widget()), "cost limit exceeded");
  }

  @Test
  void costLimitStopsARegularExpressionOverALongString() {
    assertLimitError(statusOf("spec.big.matches('(a|b|x)*y')", widget()), "cost limit exceeded");
  }

  @Test
  void costLimitStopsRepeatedDeepComparisonsOfALargeValue() {
    // 5,000 iterations, well within the iteration budget, each comparing 5,000 elements.
    assertLimitError(
        statusOf("spec.many.all(i, spec.many == spec.many)", widget()), "cost limit exceeded");
  }

  @Test
  void costLimitCountsTheNodesOfEveryIteration() {
    // 5,000 iterations of a body of about 400 nodes: two million nodes evaluated.
    String sum = String.join(" + ", Collections.nCopies(200, "i"));
    assertLimitError(
        statusOf("spec.many.all(i, " + sum + " >= 0)", widget()), "cost limit exceeded");
    assertEquals(
        Status.Current, statusOf("spec.items.all(i, " + sum + " >= 0)", widget()).status());
  }

  /**
   * A near miss: a needle of 100,001 characters that matches the text everywhere but at its last
   * character. Compared at every position of the text, as cel-java's functions compare it, that is
   * 10^11 steps, for hours, within every limit, since a call is charged its arguments' length.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "spec.big.indexOf(spec.big.substring(900000) + 'y') == -1",
        "spec.big.lastIndexOf(spec.big.substring(900000) + 'y') == -1",
        "!spec.big.contains(spec.big.substring(900000) + 'y')",
        "spec.big.split(spec.big.substring(900000) + 'y').size() == 1",
        "spec.big.replace(spec.big.substring(900000) + 'y', '').size() == 1000000"
      })
  void searchingALongStringForANearMissTakesLinearTime(String expression) {
    ResourceStatus status = statusOf(expression, widget());
    assertEquals(Status.Current, status.status(), status::message);
  }

  /**
   * An expression of a few hundred characters on an object with nothing in it: it grows a string of
   * 100,000 characters and searches it a hundred times for a near miss of half its length. Each
   * search is charged for going through both, and ends with the budget long before the hundredth
   * (cel-java's own searches took seconds each and were charged as little).
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "s.indexOf(n) < 0        | cost limit exceeded",
        "s.lastIndexOf(n) < 0    | cost limit exceeded",
        "!s.contains(n)          | cost limit exceeded",
        "s.replace(n, '') == s   | cost limit exceeded",
        // Each list of one copy of the string is charged its memory first.
        "s.split(n).size() == 1  | size limit exceeded"
      })
  void repeatedSearchesOfAGrownStringEndWithTheBudget(String search, String limit) {
    String grown = "'xxxxxxxxxx'" + ".replace('x', 'xxxxxxxxxx')".repeat(4);
    String tens = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
    String expression =
        String.format(
            "[%s].all(s, [s.substring(50000) + 'y'].all(n, %s.all(i, %s.all(j, %s))))",
            grown, tens, tens, search);
    Map<String, Object> empty =
        Map.of("apiVersion", "example.com/v1", "kind", "Widget", "metadata", Map.of("name", "w"));
    assertLimitError(statusOf(expression, empty), limit);
  }

  @Test
  void regularExpressionOfABillionInstructionsIsRefusedBeforeItIsCompiled() {
    assertLimitError(
        statusOf("'x'.matches('((a{1000}){1000}){1000}')", widget()),
        "regular expression too large");
  }

  @Test
  void guardedFunctionsWorkAsBeforeOnOrdinaryValues() {
    String expression =
        String.join(
            " && ",
            "'a-b'.split('-') == ['a', 'b']",
            "'a-b-c'.split('-', 2) == ['a', 'b-c']",
            "'aXbX'.replace('X', '-') == 'a-b-'",
            "'aXbX'.replace('X', '-', 1) == 'a-bX'",
            "['a', 'b'].join('-') == 'a-b'",
            "['a', 'b'].join() == 'ab'",
            "[[1], [2, [3]]].flatten() == [1, 2, [3]]",
            "[[1], [2, [3]]].flatten(2) == [1, 2, 3]",
            "sets.contains([1, 2], [2])",
            "sets.equivalent([1, 2], [2, 1])",
            "sets.intersects([1], [1, 3])",
            "'abc'.matches('^a.c$')",
            "[3, 1, 2].sort() == [1, 2, 3]",
            "[1, 2, 2].distinct() == [1, 2]",
            "[1, 2, 3].slice(1, 2) == [2]",
            "[1, 2].reverse() == [2, 1]",
            "math.greatest([1, 5, 3]) == 5",
            "math.least(2, 1) == 1",
            "['a', 1].join('-') == 'a-1'",
            "optional.unwrap([optional.of(1), optional.none()]) == [1]",
            "matches('abc', 'b')",
            "'abcabc'.indexOf('c') == 2",
            "'abcabc'.indexOf('c', 3) == 5",
            "'abcabc'.lastIndexOf('ab') == 3",
            "'abcabc'.lastIndexOf('ab', 2) == 0",
            "'a😀b'.indexOf('b') == 2",
            "'abc'.contains('bc') && !'abc'.contains('cb')",
            "spec.secret.startsWith('s3cr3t')");
    ResourceStatus status = statusOf(expression, widget());
    assertEquals(Status.Current, status.status(), status::message);
  }

  @Test
  void expressionsAtTheLengthLimitCompileAndLongerOnesAreRejectedWithoutBeingQuoted() {
    int limit = CelLimits.DEFAULT.maxExpressionLength();
    assertEquals(4_096, limit);
    String atLimit = "'" + "a".repeat(limit - 8) + "' != ''";
    assertEquals(limit, atLimit.length());
    assertEquals(Status.Current, statusOf(atLimit, widget()).status());

    String tooLong = "'" + "a".repeat(limit - 7) + "' != ''";
    InvalidHealthCheckException error =
        assertThrows(InvalidHealthCheckException.class, () -> statusOf(tooLong, widget()));
    assertTrue(
        error
            .getMessage()
            .contains(
                "failed to parse the expression Current: the expression is 4097"
                    + " characters long, more than the limit of 4096 characters"),
        error::getMessage);
    assertTrue(error.getMessage().length() < 300, "the expression is not quoted");
  }

  @Test
  void lengthIsCountedInCodePoints() {
    String emoji = "\uD83D\uDE00"; // one code point, two UTF-16 characters
    String expression = "'" + emoji.repeat(4_000) + "' != ''";
    assertEquals(Status.Current, statusOf(expression, widget()).status());
  }

  @Test
  void evaluationErrorsNeverQuoteTheObjectsValues() {
    List<String> expressions =
        List.of(
            "int(spec.secret) == 1",
            "double(spec.secret) == 1.0",
            "uint(spec.secret) == 1u",
            "bool(spec.secret)",
            "timestamp(spec.secret) > timestamp(0)",
            "spec.secret.matches(spec.secret + '(')",
            "base64.decode(spec.secret) == b''",
            "spec.labels[spec.secret + 'x'] == 'x'",
            "spec.labels[spec.secret.upperAscii()] == 'x'",
            "{spec.secret: 1, spec.secret: 2}.size() == 1",
            "[spec.secret, 1].sort() == []",
            "[spec.secret].flatten(-1) == []");
    for (String expression : expressions) {
      ResourceStatus status = statusOf(expression, widget());
      assertEquals(Status.Unknown, status.status(), expression);
      assertFalse(status.message().contains(SECRET), status::message);
      assertTrue(status.message().contains("(at <input>:"), status::message);
    }
  }

  @Test
  void aMissingKeyNamedInTheExpressionIsStillNamed() {
    ResourceStatus status = statusOf("spec.labels.absent == 'x'", widget());
    assertTrue(status.message().endsWith("no such key: absent (at <input>:11)"), status::message);
  }
}
