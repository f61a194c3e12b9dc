package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A packaged chart's version with Flux's build metadata. */
class ChartVersionsTest {
  @Test
  void theSourcesShortRevisionThenTheGenerationWhenValuesFilesAreMerged() {
    String commit = "main@sha1:0123456789abcdef0123456789abcdef01234567";
    assertEquals("0123456789ab", ChartVersions.metadata(commit, null));
    assertEquals("0123456789ab.3", ChartVersions.metadata(commit, 3L));
    assertEquals("3", ChartVersions.metadata(null, 3L));
    assertNull(ChartVersions.metadata(null, null));
  }

  @Test
  void metadataReplacesWhatTheVersionHad() {
    assertEquals("1.2.3+0123456789ab", ChartVersions.withMetadata("1.2.3", "0123456789ab"));
    assertEquals("1.2.3+4", ChartVersions.withMetadata("1.2.3+old", "4"));
    assertEquals("1.2.3", ChartVersions.withMetadata("1.2.3", null));
  }
}
