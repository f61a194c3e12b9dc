package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.kustomize.chart.ChartVersionPin;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which recorded chart version an artifact made, and what its render does to the version. */
class ChartArtifactTest {
  private static final String DIGEST = "sha256:0123456789ab" + "c".repeat(52);

  @Test
  void aHelmChartsRevisionIsTheVersionAndItsRenderKeepsIt() {
    ChartArtifact chart = helmChart("0.1.0+abc1234.1");
    assertTrue(chart.madeOf("0.1.0+abc1234.1"));
    assertFalse(chart.madeOf("0.1.0"));
    assertFalse(chart.madeOf(null));
    assertEquals(ChartVersionPin.NONE, chart.versionPin());
  }

  @Test
  void anOciChartPulledByTagMustBeThatVersionAndTakesTheDigest() {
    ChartArtifact chart = oci("v1.21.2@" + DIGEST);
    assertEquals(new ChartVersionPin("v1.21.2", "0123456789ab"), chart.versionPin());
    assertTrue(chart.madeOf("1.21.2+0123456789ab"));
  }

  @Test
  void aMutableTagIsPassedOnToBeRefusedByTheRender() {
    assertEquals(
        new ChartVersionPin("latest", "0123456789ab"), oci("latest@" + DIGEST).versionPin());
  }

  @Test
  void anOciChartPulledByDigestTakesTheDigestOnly() {
    assertEquals(new ChartVersionPin("", "0123456789ab"), oci(DIGEST).versionPin());
  }

  @Test
  void anOciTagsUnderscoreIsTheVersionsBuildMetadata() {
    assertEquals("1.0.0+build.7", oci("1.0.0_build.7@" + DIGEST).versionPin().tag());
  }

  @Test
  void anOciRecordIsMadeOfTheArtifactWhoseDigestItsVersionCarries() {
    ChartArtifact chart = oci("6.5.0@" + DIGEST);
    assertTrue(chart.madeOf("6.5.0+0123456789ab"));
    assertFalse(chart.madeOf("6.5.0"), "a version without the digest: made before it was pinned");
    assertFalse(chart.madeOf("6.5.0+ba9876543210"), "another push of the same tag");
    assertFalse(chart.madeOf(null));
  }

  @Test
  void aTagMovedToTheSameDigestNoLongerMadeTheRecord() {
    assertFalse(oci("latest@" + DIGEST).madeOf("6.5.0+0123456789ab"), "rendered, then refused");
    assertFalse(oci("6.6.0@" + DIGEST).madeOf("6.5.0+0123456789ab"));
    assertTrue(oci("v6.5.0@" + DIGEST).madeOf("6.5.0+0123456789ab"), "read as Helm reads it");
    assertTrue(oci("6.5@" + DIGEST).madeOf("6.5.0+0123456789ab"));
    assertTrue(oci(DIGEST).madeOf("6.5.0+0123456789ab"), "pulled by digest: no tag to name it");
  }

  @Test
  void anAttemptIsRecordedAsFluxRecordsIt() {
    ChartArtifact chart = helmChart("0.1.0+abc1234.1");
    assertEquals(
        List.of("0.1.0+abc1234.1", "sha256:x"),
        List.of(chart.attemptedRevision(), chart.attemptedDigest()));
    assertNull(chart.ociDigest());

    assertEquals("1.21.2+0123456789ab", oci("v1.21.2@" + DIGEST).attemptedRevision());
    assertEquals(DIGEST, oci("v1.21.2@" + DIGEST).attemptedDigest());
    assertEquals("1.0.0+0123456789ab", oci("1.0.0_build.7@" + DIGEST).attemptedRevision());
    assertEquals("1.0.0-rc.1+0123456789ab", oci("v1.0.0-rc.1@" + DIGEST).attemptedRevision());
    assertEquals("6.5.0+0123456789ab", oci("6.5@" + DIGEST).attemptedRevision());
    assertEquals(
        "latest@" + DIGEST,
        oci("latest@" + DIGEST).attemptedRevision(),
        "no version: the render refuses it");
    assertEquals(DIGEST, oci(DIGEST).attemptedRevision(), "pulled by digest: no version yet");
    assertEquals(DIGEST, oci(DIGEST).attemptedDigest());
  }

  @Test
  void tagsAreReadAsHelmReadsThemLoosely() {
    assertEquals("1.2.0-rc.1+0123456789ab", oci("1.2-rc.1@" + DIGEST).attemptedRevision());
    assertEquals("1.0.0-beta.1+0123456789ab", oci("v1-beta.1@" + DIGEST).attemptedRevision());
    assertEquals("1.2.3-rc.1+0123456789ab", oci("01.2.3-rc.1@" + DIGEST).attemptedRevision());
    assertEquals(
        "18446744073709551615.0.0+0123456789ab",
        oci("18446744073709551615@" + DIGEST).attemptedRevision());
    assertEquals(
        "18446744073709551616@" + DIGEST,
        oci("18446744073709551616@" + DIGEST).attemptedRevision(),
        "past 2^64-1: no version");
    assertEquals("1.0.0-01@" + DIGEST, oci("1.0.0-01@" + DIGEST).attemptedRevision());
    assertTrue(oci("1.2-rc.1@" + DIGEST).madeOf("1.2.0-rc.1+0123456789ab"));
    assertFalse(oci("1.2-rc.1@" + DIGEST).madeOf("1.2.0-rc.2+0123456789ab"));
    assertFalse(oci("1.2-rc.1@" + DIGEST).madeOf("1.2.0+0123456789ab"));
  }

  @Test
  void aRevisionWhoseDigestIsNotOneIsRefused() {
    for (String revision : List.of("6.5.0@", "6.5.0@sha256", "6.5.0@sha256:0123")) {
      ReleaseFailure refused =
          assertThrows(ReleaseFailure.class, () -> oci(revision).versionPin(), revision);
      assertTrue(refused.getMessage().contains("invalid artifact revision"), refused.getMessage());
    }
  }

  private static ChartArtifact helmChart(String revision) {
    return new ChartArtifact(
        false, "HelmChart 'a/b'", revision, "sha256:x", Path.of("/a"), "c.tgz", "c");
  }

  private static ChartArtifact oci(String revision) {
    return new ChartArtifact(
        true, "OCIRepository 'a/b'", revision, "sha256:x", Path.of("/a"), "c.tgz", null);
  }
}
