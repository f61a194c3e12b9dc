package dev.capstan.health.cel;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** For generated patterns RE2/J accepts, the size read from the pattern is never below its own. */
class RegexSizePropertyTest {
  @Property(tries = 2_000, edgeCases = EdgeCasesMode.NONE)
  boolean estimateIsNeverBelowTheCompiledSize(@ForAll("patterns") String pattern) {
    long actual;
    try {
      actual = Pattern.compile(pattern).programSize();
    } catch (PatternSyntaxException rejected) {
      Assume.that(false);
      return true;
    }
    return RegexSize.estimate(pattern, Long.MAX_VALUE / 2) >= actual;
  }

  @Provide
  Arbitrary<String> patterns() {
    Arbitrary<String> tokens =
        Arbitraries.of(
            "a",
            "b",
            "x",
            ".",
            "^",
            "$",
            "\\d",
            "\\w",
            "\\pL",
            "\\p{Greek}",
            "\\Qa*\\E",
            "[a-z]",
            "[^]x]",
            "[[:alpha:]]",
            "(",
            ")",
            "(?:",
            "(?i)",
            "(?P<n>",
            "|",
            "*",
            "+",
            "?",
            "*?",
            "{2}",
            "{1,3}",
            "{2,}",
            "{0,5}",
            "{",
            "}",
            ",",
            "\\.",
            "\\x{41}");
    return tokens.list().ofMinSize(1).ofMaxSize(12).map(list -> String.join("", list));
  }
}
