package dev.capstan.applier.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class VariableSubstitutionTest {
  private final VariableSubstitution substitution =
      new VariableSubstitution(Map.of("SET", "value", "EMPTY", ""));

  @Test
  void expandsVariablesAndDefaults() throws Exception {
    assertEquals("a value b", substitution.apply("a ${SET} b"));
    assertEquals("", substitution.apply("${UNSET}"));
    assertEquals("fallback", substitution.apply("${UNSET:=fallback}"));
    assertEquals("fallback", substitution.apply("${EMPTY:=fallback}"));
    assertEquals("", substitution.apply("${EMPTY=fallback}"));
    assertEquals("value", substitution.apply("${SET:-fallback}"));
    assertEquals("nested-value", substitution.apply("${UNSET:=nested-${SET}}"));
  }

  @Test
  void escapesAndBareDollarsStayLiteral() throws Exception {
    assertEquals("${SET} $SET $ 5$", substitution.apply("$${SET} $SET $ 5$"));
  }

  @Test
  void syntaxErrors() {
    assertThrows(VariableSubstitution.SyntaxError.class, () -> substitution.apply("${SET"));
    assertThrows(VariableSubstitution.SyntaxError.class, () -> substitution.apply("${}"));
    assertThrows(VariableSubstitution.SyntaxError.class, () -> substitution.apply("${1A}"));
    assertThrows(VariableSubstitution.SyntaxError.class, () -> substitution.apply("${A B}"));
  }
}
