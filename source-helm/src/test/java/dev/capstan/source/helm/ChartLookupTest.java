package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.StoredArtifact;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A chart version found in a stored index by name and semver range, as Helm picks it. */
class ChartLookupTest {
  private final ChartLookup lookup = new ChartLookup(IndexLimits.DEFAULTS);
  private StoredArtifact artifact;

  @BeforeEach
  void storeTheIndex(@TempDir Path dir) throws IOException {
    try (InputStream in = IndexParserTest.resource("podinfo.yaml")) {
      String digest =
          IndexWriter.write(
              new IndexParser(IndexLimits.DEFAULTS).parse(in, c -> true),
              dir.resolve(IndexWriter.FILE));
      artifact = new StoredArtifact(digest, digest, dir, Instant.EPOCH);
    }
  }

  @ParameterizedTest
  @CsvSource(
      nullValues = "none",
      value = {
        "podinfo, none, 6.5.4",
        "podinfo, '', 6.5.4",
        "podinfo, *, 6.5.4",
        "podinfo, ^6.0.0, 6.5.4",
        "podinfo, '>=6.0.0 <6.5.0', 6.0.0",
        "podinfo, 6.0.0, 6.0.0",
        "podinfo, '>=6.6.0-0', 6.6.0-rc.1",
        "podinfo, 6.6.0-rc.1, 6.6.0-rc.1",
        "redis, 17.x, v17.1.0",
        "redis, ~18, 18.0.0"
      })
  void theHighestVersionInTheRangeIsFound(String chart, String range, String version) {
    assertEquals(
        version, lookup.find(artifact, chart, range).map(ChartVersion::version).orElseThrow());
  }

  @Test
  void theEntryFoundHoldsWhereToDownloadItAndItsDigest() {
    ChartVersion found = lookup.find(artifact, "redis", "18.0.0").orElseThrow();

    assertEquals(
        List.of(
            "https://charts.example.com/redis-18.0.0.tgz",
            "https://mirror.example.com/redis-18.0.0.tgz"),
        found.urls());
    assertEquals("7.2", found.appVersion());
  }

  @Test
  void nothingMatchingIsNothingFound() {
    assertEquals(Optional.empty(), lookup.find(artifact, "podinfo", "^7.0.0"));
    assertEquals(Optional.empty(), lookup.find(artifact, "nginx", null));
    assertEquals(List.of(), lookup.versionsOf(artifact, "nginx"));
  }

  @Test
  void aRangeThatIsNoneIsAnInvalidRef() {
    SourceException refused =
        assertThrows(SourceException.class, () -> lookup.find(artifact, "podinfo", "latest!"));

    assertEquals(FailureReason.INVALID_REF, refused.reason());
  }
}
