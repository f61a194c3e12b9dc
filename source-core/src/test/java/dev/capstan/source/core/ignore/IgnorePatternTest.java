package dev.capstan.source.core.ignore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.capstan.source.core.Deadline;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.eclipse.jgit.ignore.IgnoreNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** gitignore syntax as git documents it, one rule against one path. */
class IgnorePatternTest {

  private static final Deadline NONE = new Deadline(Clock.systemUTC(), Instant.MAX);

  private static IgnoreFile.Decision decide(String rules, String path, boolean isDir) {
    return IgnoreFile.parse(rules).decide(path.split("/", -1), 0, isDir, NONE);
  }

  private static boolean ignored(String rule, String path, boolean isDir) {
    return decide(rule, path, isDir) == IgnoreFile.Decision.IGNORED;
  }

  @ParameterizedTest(name = "{0} {1} (directory: {2}) -> {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        // A name without a slash matches at any depth; with one, from the file's directory.
        "*.md        | README.md        | false | true",
        "*.md        | docs/a/guide.md  | false | true",
        "*.md        | README.mdx       | false | false",
        "/build      | build            | true  | true",
        "/build      | app/build        | true  | false",
        "doc/frotz   | doc/frotz        | false | true",
        "doc/frotz   | a/doc/frotz      | false | false",
        "/doc/frotz  | doc/frotz        | false | true",
        // A trailing slash: directories only.
        "frotz/      | a/frotz          | true  | true",
        "frotz/      | a/frotz          | false | false",
        "doc/frotz/  | doc/frotz        | true  | true",
        // Two stars as a segment.
        "**/foo      | foo              | false | true",
        "**/foo      | a/b/foo          | false | true",
        "**/foo/bar  | x/foo/bar        | false | true",
        "**/foo/bar  | x/foo/y/bar      | false | false",
        "abc/**      | abc/x/y          | false | true",
        "abc/**      | abc              | true  | false",
        "abc/**/     | abc/x            | true  | true",
        "abc/**/     | abc/x            | false | false",
        "a/**/b      | a/b              | false | true",
        "a/**/b      | a/x/y/b          | false | true",
        "a/**/b      | a/x/y/c          | false | false",
        "a/**/b/**/c | a/b/c            | false | true",
        "a/**/b/**/c | a/x/b/y/b/z/c    | false | true",
        "a/**/b/**/c | a/x/c/b          | false | false",
        "**/a/**     | x/a/y            | false | true",
        "**/a/**     | x/a              | true  | false",
        "**          | any/thing        | false | true",
        "**b         | ab               | false | true",
        // Wildcards stay within a segment.
        "a*b         | axxb             | false | true",
        "a*b         | a/b              | false | false",
        "/a?c        | abc              | false | true",
        "/a?c        | a/c              | false | false",
        "*           | .hidden          | false | true",
        // Bracket expressions.
        "[a-c]x      | bx               | false | true",
        "[!a-c]x     | bx               | false | false",
        "[^a-c]x     | dx               | false | true",
        "[]]x        | ]x               | false | true",
        "[a-]x       | -x               | false | true",
        "[[:digit:]] | 7                | false | true",
        "[[:upper:]] | a                | false | false",
        // Escapes and trailing spaces.
        "\\#hash     | #hash            | false | true",
        "\\!bang     | !bang            | false | true",
        "a\\*        | a*               | false | true",
        "a\\*        | ab               | false | false",
        "'trail  '   | trail            | false | true",
        "'space\\ '  | 'space '         | false | true",
        "'space\\ '  | space            | false | false",
        // What never matches: a comment, an unclosed or reversed bracket, a lone backslash.
        "'#*'        | '#x'             | false | false",
        "[ab         | a                | false | false",
        "[b-a]       | a                | false | false",
        "a\\         | a                | false | false",
      })
  void matchesAsGitDocuments(String rule, String path, boolean isDir, boolean expected) {
    assertEquals(expected, ignored(rule, path, isDir));
  }

  @Test
  void theLastMatchingRuleDecides() {
    assertEquals(IgnoreFile.Decision.KEPT, decide("*.yaml\n!keep.yaml\n", "keep.yaml", false));
    assertEquals(IgnoreFile.Decision.IGNORED, decide("!keep.yaml\n*.yaml\n", "keep.yaml", false));
    assertEquals(IgnoreFile.Decision.UNDECIDED, decide("*.md\r\n# *.yaml\r\n", "a.yaml", false));
    assertEquals(IgnoreFile.Decision.IGNORED, decide("*.md\r*.yaml\r", "a.yaml", false));
  }

  /**
   * Where JGit, which matched the rules before, departs from git's documentation, the rules follow
   * the documentation: a backslash always escapes, a {@code ^} inside brackets is a member, and
   * repeated slashes count as one (JGit ignored them only in patterns with wildcards).
   */
  @Test
  void departuresFromJgitFollowGit() {
    assertEquals(false, ignored("\\a\\*", "ab", false), "JGit: true (the star a wildcard)");
    assertEquals(true, ignored("\\a\\*", "a*", false));
    assertEquals(true, ignored("[a^]", "^", false), "JGit: never (unclosed)");
    assertEquals(true, ignored("[![!]", "a", false), "JGit: never");
    assertEquals(true, ignored("a//b", "a/b", false), "JGit: never (without wildcards)");
    assertEquals(false, ignored("[[:nope:]]", ":", false), "an unknown class never matches");
  }

  /**
   * An escaped trailing slash still marks directories, as JGit read it; two stars written before it
   * are ordinary stars, one segment, as JGit read them (git itself matches no path with such a
   * line, since no path ends with a slash).
   */
  @Test
  void anEscapedTrailingSlashAfterTwoStarsMatchesOneSegment() {
    assertEquals(true, ignored("/**\\/", "a", true));
    assertEquals(false, ignored("/**\\/", "a/a", true), "not the any-depth two stars");
    assertEquals(false, ignored("/**\\/", "a", false), "directories only");
    assertEquals(true, ignored("**\\/", "a/a", true), "without a slash before: at any depth");
    assertEquals(true, ignored("/**/", "a/a", true), "unescaped: any depth");
    assertEquals(true, ignored("/a\\/", "a", true));
  }

  @Test
  void posixClassesMeanWhatTheyMeantBefore() throws IOException {
    StringBuilder characters = new StringBuilder();
    for (char c = 1; c < 0x80; c++) {
      characters.append(c == '/' ? 'x' : c);
    }
    characters.append("éÉßΩω٣\u00a0\u2003中😀\u0085");
    List<String> classes =
        List.of(
            "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
            "space", "upper", "xdigit", "word");
    for (String name : classes) {
      String rule = "[![:" + name + ":]x]";
      IgnoreNode jgit = new IgnoreNode();
      jgit.parse(new ByteArrayInputStream(rule.getBytes(StandardCharsets.UTF_8)));
      characters
          .codePoints()
          .mapToObj(Character::toString)
          .forEach(
              c ->
                  assertEquals(
                      Boolean.TRUE.equals(jgit.checkIgnored(c, false)),
                      ignored(rule, c, false),
                      () -> rule + " on U+" + Integer.toHexString(c.codePointAt(0))));
    }
  }

  @Test
  void aRuleOfAMillionCharactersCostsLittleOnShortNames() {
    String huge = "*a".repeat(500_000) + "*b";
    IgnoreFile rules =
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> IgnoreFile.parse(huge));
    assertTimeoutPreemptively(
        Duration.ofMillis(500),
        () -> {
          for (int i = 0; i < 10_000; i++) {
            rules.decide(new String[] {"a".repeat(255)}, 0, false, NONE);
          }
        });
  }
}
