package dev.capstan.source.core.ignore;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class IgnoreRulesTest {

  private static final Deadline NONE = new Deadline(Clock.systemUTC(), Instant.MAX);

  @Test
  void layersFromDeepestToRootWithSpecOnTop() {
    IgnoreRules root =
        IgnoreRules.root("!keep.txt\n/build/\n", NONE)
            .enter("", "*.txt\n!important.txt\n".getBytes(UTF_8));
    IgnoreRules sub = root.enter("sub", "important.txt\nlocal/\n".getBytes(UTF_8));

    assertTrue(root.isIgnored("a.txt", false));
    assertFalse(root.isIgnored("important.txt", false));
    assertFalse(root.isIgnored("keep.txt", false), "spec.ignore overrules .sourceignore");
    assertTrue(root.isIgnored("build", true));
    assertFalse(root.isIgnored("sub/build", true), "anchored to the root");
    assertTrue(sub.isIgnored("sub/important.txt", false), "deeper file wins");
    assertTrue(sub.isIgnored("sub/local", true));
    assertFalse(root.isIgnored("local", true), "nested rules stay in their directory");
    assertTrue(root.isIgnored(".git", true));
    assertFalse(root.isIgnored("deploy.yaml", false));
  }

  @Test
  void nestedRulesAreAnchoredAtTheirOwnDirectory() {
    IgnoreRules deep = IgnoreRules.root(null, NONE).enter("a/b", "/x\nc/*.yaml\n".getBytes(UTF_8));
    assertTrue(deep.isIgnored("a/b/x", false));
    assertFalse(deep.isIgnored("a/b/c/x", false));
    assertTrue(deep.isIgnored("a/b/c/d.yaml", false));
    assertFalse(deep.isIgnored("a/b/d/c/d.yaml", false));
  }

  @Test
  void aRuleWithManyStarsIsMatchedAgainstALongNameInLinearTime() {
    // A backtracking regular expression takes minutes on this: every way of placing 8 stars.
    String name = "a".repeat(100);
    IgnoreRules rules =
        IgnoreRules.root("*a*a*a*a*a*a*a*a*b\n", NONE)
            .enter("", "*a*a*a*a*a*a*a*a*b\n".getBytes(UTF_8));
    boolean ignored =
        assertTimeoutPreemptively(Duration.ofMillis(500), () -> rules.isIgnored(name, false));
    assertFalse(ignored);
    assertTrue(rules.isIgnored(name + "b", false));
  }

  @Test
  void matchingStopsOnceTheDeadlineHasPassed() {
    Clock late = Clock.fixed(Instant.parse("2030-01-01T00:00:01Z"), ZoneOffset.UTC);
    Deadline passed = new Deadline(late, Instant.parse("2030-01-01T00:00:00Z"));
    IgnoreRules rules = IgnoreRules.root("*.md\n", passed);
    SourceException e = assertThrows(SourceException.class, () -> rules.isIgnored("a.md", false));
    assertEquals(FailureReason.TIMEOUT, e.reason());
  }
}
