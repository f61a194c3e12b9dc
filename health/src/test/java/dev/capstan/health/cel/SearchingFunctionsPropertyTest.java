package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The linear searching functions give what cel-java's own give, results and errors alike, on
 * generated short strings: with repeats, surrogate pairs, lone surrogates and accents, and offsets
 * and limits in and out of range. cel-java's run in a plain cel-java environment as the reference.
 */
class SearchingFunctionsPropertyTest {

  /** An implementation under test: the arguments are s, t, r and n. */
  @FunctionalInterface
  private interface Call {
    Object apply(String s, String t, String r, long n) throws CelEvaluationException;
  }

  private static final Cel REFERENCE =
      CelFactory.standardCelBuilder()
          .addCompilerLibraries(CelExtensions.strings())
          .addRuntimeLibraries(CelExtensions.strings())
          .addVar("s", SimpleType.STRING)
          .addVar("t", SimpleType.STRING)
          .addVar("r", SimpleType.STRING)
          .addVar("n", SimpleType.INT)
          .build();

  private static final Map<String, Call> CALLS = new LinkedHashMap<>();

  static {
    CALLS.put("s.indexOf(t)", (s, t, r, n) -> SearchingFunctions.indexOf(s, t));
    CALLS.put("s.indexOf(t, n)", (s, t, r, n) -> SearchingFunctions.indexOf(s, t, n));
    CALLS.put("s.lastIndexOf(t)", (s, t, r, n) -> SearchingFunctions.lastIndexOf(s, t));
    CALLS.put("s.lastIndexOf(t, n)", (s, t, r, n) -> SearchingFunctions.lastIndexOf(s, t, n));
    CALLS.put("s.contains(t)", (s, t, r, n) -> SearchingFunctions.contains(s, t));
    CALLS.put("s.replace(t, r)", (s, t, r, n) -> SearchingFunctions.replace(s, t, r));
    CALLS.put("s.replace(t, r, n)", (s, t, r, n) -> SearchingFunctions.replace(s, t, r, n));
    CALLS.put("s.split(t)", (s, t, r, n) -> SearchingFunctions.split(s, t));
    CALLS.put("s.split(t, n)", (s, t, r, n) -> SearchingFunctions.split(s, t, n));
  }

  private static final Map<String, CelRuntime.Program> PROGRAMS = new LinkedHashMap<>();

  static {
    try {
      for (String expression : CALLS.keySet()) {
        PROGRAMS.put(expression, REFERENCE.createProgram(REFERENCE.compile(expression).getAst()));
      }
    } catch (CelValidationException | CelEvaluationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Property(tries = 3_000)
  void givesWhatCelJavaGives(
      @ForAll("texts") String s,
      @ForAll("needles") String t,
      @ForAll("needles") String r,
      @ForAll("numbers") long n) {
    for (var entry : CALLS.entrySet()) {
      String expression = entry.getKey();
      Outcome expected = reference(expression, s, t, r, n);
      Outcome actual = ours(entry.getValue(), s, t, r, n);
      String where = expression + " with s=" + s + ", t=" + t + ", r=" + r + ", n=" + n;
      assertEquals(
          expected.failed(), actual.failed(), () -> where + ": " + expected + " / " + actual);
      if (!expected.failed()) {
        assertEquals(expected.value(), actual.value(), where);
      } else if (actual.message() != null) {
        String message = actual.message();
        assertTrue(
            expected.message().endsWith(message), () -> where + ": " + expected + " / " + message);
      }
    }
  }

  /** A result, or a failure and its message (null when it is not an evaluation error). */
  private record Outcome(boolean failed, Object value, String message) {}

  private static Outcome reference(String expression, String s, String t, String r, long n) {
    try {
      return new Outcome(
          false, PROGRAMS.get(expression).eval(Map.of("s", s, "t", t, "r", r, "n", n)), null);
    } catch (CelEvaluationException e) {
      return new Outcome(true, null, e.getMessage());
    }
  }

  private static Outcome ours(Call call, String s, String t, String r, long n) {
    try {
      return new Outcome(false, call.apply(s, t, r, n), null);
    } catch (CelEvaluationException e) {
      return new Outcome(true, null, e.getMessage());
    } catch (IllegalArgumentException e) {
      return new Outcome(true, null, null);
    }
  }

  private static final char[] CHARACTERS = {
    'a', 'a', 'a', 'b', 'é', '\uD83D', '\uDE00', '\uD83D', '\uDE00', '\uDC00'
  };

  @Provide
  Arbitrary<String> texts() {
    return Arbitraries.strings().withChars(CHARACTERS).ofMinLength(0).ofMaxLength(10);
  }

  @Provide
  Arbitrary<String> needles() {
    return Arbitraries.strings().withChars(CHARACTERS).ofMinLength(0).ofMaxLength(3);
  }

  @Provide
  Arbitrary<Long> numbers() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(-3, 12), Arbitraries.of(1L << 31, -(1L << 31) - 1));
  }
}
