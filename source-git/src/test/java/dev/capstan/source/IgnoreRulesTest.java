package dev.capstan.source;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IgnoreRulesTest {

  @Test
  void layersFromDeepestToRootWithSpecOnTop() {
    IgnoreRules root =
        IgnoreRules.root("!keep.txt\n/build/\n")
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
}
