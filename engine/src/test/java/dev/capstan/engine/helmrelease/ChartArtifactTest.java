package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The chart version an artifact's revision names, as a release record keeps it. */
class ChartArtifactTest {

  @Test
  void aHelmChartsRevisionIsTheVersion() {
    assertEquals("0.1.0+abc1234.1", of("0.1.0+abc1234.1").version());
  }

  @Test
  void anOciRepositorysRevisionIsItsTagWithoutTheDigest() {
    assertEquals("v1.21.2", of("v1.21.2@sha256:" + "3".repeat(64)).version());
  }

  @Test
  void anOciTagsUnderscoreIsTheVersionsBuildMetadata() {
    assertEquals("1.0.0+build.7", of("1.0.0_build.7@sha256:" + "3".repeat(64)).version());
  }

  private static ChartArtifact of(String revision) {
    return new ChartArtifact("OCIRepository 'a/b'", revision, "sha256:x", Path.of("/a"), "c.tgz");
  }
}
