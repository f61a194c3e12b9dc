package dev.capstan.applier.ignore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The label selector syntax of Kubernetes, matched against {@code app=web, tier=front, n=3}. */
class LabelSelectorTest {
  private static final Map<String, String> LABELS =
      Map.of("app", "web", "tier", "front", "n", "3", "example.com/team", "a");

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''|true",
        "app=web|true",
        "app==web|true",
        "app = web , tier=front|true",
        "app!=web|false",
        "missing!=x|true",
        "app in (web, api)|true",
        "app notin (web)|false",
        "missing notin (web)|true",
        "app|true",
        "!app|false",
        "!missing|true",
        "n>2|true",
        "n<3|false",
        "example.com/team=a|true",
        "app=web,tier=back|false",
        "app=|false",
      })
  void matchesAsKubernetesDoes(String selector, boolean matches) {
    assertEquals(matches, LabelSelector.parse(selector).matches(LABELS), selector);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "=web",
        "app in web",
        "app in (web",
        "app ~ web",
        "-app=web",
        "app=web,",
        "n>x",
        "app=we b"
      })
  void refusesWhatIsNoSelectorWithoutQuotingIt(String selector) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> {
              if (!LabelSelector.parse(selector).matches(LABELS)) {
                throw new IllegalArgumentException("did not match");
              }
              throw new IllegalArgumentException("matched");
            });
    assertTrue(
        e.getMessage().startsWith("is not a label selector"), selector + ": " + e.getMessage());
    assertFalse(e.getMessage().contains("web"), e.getMessage());
  }
}
