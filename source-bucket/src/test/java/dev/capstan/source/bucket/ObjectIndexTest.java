package dev.capstan.source.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.ignore.IgnoreRules;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which objects are kept, the revision Flux computes for them, and keys that are refused. */
class ObjectIndexTest {
  private static final IgnoreRules NO_RULES = rules(null, null);

  @Test
  void theRevisionIsTheDigestOfSortedKeyAndEtagLines() {
    // printf 'a.yaml 1111\ndir/b.yaml 2222\n' | sha256sum
    ObjectIndex index =
        ObjectIndex.of(
            List.of(listed("dir/b.yaml", "2222"), listed("a.yaml", "1111")), NO_RULES, 1024);
    assertEquals(
        "sha256:783f012f1d188d061e9098e7ecefbdc316f4e96de9a44e3c83e45a3262030a88",
        index.revision());
  }

  @Test
  void directoryMarkersTheSourceIgnoreAndIgnoredKeysAreLeftOut() {
    IgnoreRules rules = rules("*.md\n", "docs/\n!docs/keep.yaml\n");
    ObjectIndex index =
        ObjectIndex.of(
            List.of(
                listed("deploy/", "d"),
                listed(".sourceignore", "s"),
                listed("README.md", "r"),
                listed("docs/keep.yaml", "k"),
                listed("deploy/app.yaml", "a")),
            rules,
            1024);
    assertEquals(List.of("deploy/app.yaml"), List.copyOf(index.objects().keySet()));
  }

  @Test
  void keysThatWouldLeaveTheArtifactAreRefusedByName() {
    for (String key :
        List.of("../escape.yaml", "a/../../b", "/etc/passwd", "a//b", "./a", "a\\b", "a\u0000b")) {
      SourceException e =
          assertThrows(
              SourceException.class,
              () -> ObjectIndex.of(List.of(listed(key, "e")), NO_RULES, 1024),
              key);
      assertTrue(e.getMessage().startsWith("object key '"), e.getMessage());
    }
    SourceException both =
        assertThrows(
            SourceException.class,
            () -> ObjectIndex.of(List.of(listed("a", "1"), listed("a/b", "2")), NO_RULES, 1024));
    assertEquals("object key 'a' is also the directory of other objects", both.getMessage());
    assertThrows(
        SourceException.class, () -> ObjectIndex.of(List.of(listed("abcdef", "1")), NO_RULES, 5));
  }

  @Test
  void aFileOutsideTheDirectoryIsRefused() {
    Path dir = Path.of("/tmp/artifact");
    assertEquals(dir.resolve("a/b"), ObjectDownloads.inside(dir, "a/b"));
    assertThrows(SourceException.class, () -> ObjectDownloads.inside(dir, "../b"));
  }

  private static ListingParser.Listed listed(String key, String etag) {
    return new ListingParser.Listed(key, etag, 1);
  }

  private static IgnoreRules rules(String sourceIgnore, String spec) {
    return IgnoreRules.root(spec, "", new Deadline(Clock.systemUTC(), Instant.MAX))
        .enter("", sourceIgnore == null ? null : sourceIgnore.getBytes(StandardCharsets.UTF_8));
  }
}
