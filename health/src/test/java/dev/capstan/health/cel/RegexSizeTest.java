package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.re2j.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The size read from a pattern is never below the size RE2/J compiles it to. */
class RegexSizeTest {
  private static final long CAP = 1_000_000;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "abc",
        "^a.c$",
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
        "\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}",
        "(a|b|x)*y",
        "(a+)+b",
        "a*?b+?c??",
        "x{2,}",
        "x{3,7}",
        "(x{2,5}){3}",
        "(a{100}){100}",
        "(?i)ready|true",
        "(?i:ab)c",
        "(?P<name>a+)(?:b|c)",
        "[]a]",
        "[^]a-z]+",
        "[[:alpha:]]+[[:digit:]]{3}",
        "\\pL+\\p{Greek}{2}",
        "\\Qa.b*c\\E+",
        "\\x{41}{5}",
        "a{,3}",
        "((((a))))",
        "a|b|c|d|e|f|g",
        // an empty alternative is a no-op instruction of its own
        "|(){0,5}",
        "(|a|)(|){3}",
      })
  void estimateIsAtLeastTheCompiledSize(String pattern) {
    long actual = Pattern.compile(pattern).programSize();
    long estimate = RegexSize.estimate(pattern, CAP);
    assertTrue(estimate >= actual, pattern + ": estimated " + estimate + ", compiled " + actual);
  }

  @ParameterizedTest
  @ValueSource(strings = {"((a{1000}){1000}){1000}", "(((x{50}){50}){50})"})
  void nestedRepetitionIsFoundLargeWithoutCompiling(String pattern) {
    assertTrue(RegexSize.estimate(pattern, 10_000) > 10_000, pattern);
  }
}
