package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.oci.testing.SlowHttpServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pulls from servers that send their bodies one byte at a time, or stop after the headers: each
 * ends at its deadline. (java.net.http's request timeout ends with the response headers.)
 */
class PullDeadlinesTest {
  private static final Duration DEADLINE = Duration.ofSeconds(2);

  /**
   * A registry pull's deadline covers its HTTP client's setup and the probe for TLS as well, which
   * take a second or two on a busy machine before the blob is asked for.
   */
  private static final Duration PULL_DEADLINE = Duration.ofSeconds(5);

  /** What a deadline may be overrun by on a busy machine: far less than the trickle's 1,000 s. */
  private static final Duration LATE = Duration.ofSeconds(5);

  /** Past which the test stops waiting: without the fix, a trickle of 1,000 s. */
  private static final Duration GIVE_UP = Duration.ofSeconds(30);

  @TempDir Path dir;
  private SlowHttpServer server;
  private ArtifactStore store;

  @BeforeEach
  void start() throws Exception {
    server = SlowHttpServer.start();
    store = new ArtifactStore(dir.resolve("store"), Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void aBlobSentOneByteASecondEndsAtThePullsDeadline() throws Exception {
    byte[] layer = new byte[1000];
    Arrays.fill(layer, (byte) 'x');
    String layerDigest = Registry.digestOf(layer);
    byte[] manifest =
        ("{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\","
                + "\"config\":{\"mediaType\":\"application/vnd.oci.empty.v1+json\","
                + "\"digest\":\""
                + Registry.digestOf("{}".getBytes(StandardCharsets.UTF_8))
                + "\",\"size\":2},\"layers\":[{\"mediaType\":"
                + "\"application/vnd.cncf.flux.content.v1.tar+gzip\",\"digest\":\""
                + layerDigest
                + "\",\"size\":1000}]}")
            .getBytes(StandardCharsets.UTF_8);
    String manifestDigest = Registry.digestOf(manifest);
    String type = "application/vnd.oci.image.manifest.v1+json";
    server
        .answer(
            "HEAD",
            "/v2/slow/app/manifests/v1",
            Map.of("Docker-Content-Digest", manifestDigest, "Content-Type", type),
            new byte[0])
        .answer(
            "GET",
            "/v2/slow/app/manifests/" + manifestDigest,
            Map.of("Content-Type", type),
            manifest)
        .trickle("/v2/slow/app/blobs/" + layerDigest, layer.length, Duration.ofSeconds(1));
    OciSource source = new OciSource(OciSourceOptions.of(store, Clock.systemUTC()));
    OciFetchRequest request =
        OciFetchRequest.of(
                "ocirepository/ns/slow", "oci://" + server.host() + "/slow/app", OciRef.tag("v1"))
            .withTimeout(PULL_DEADLINE);

    long start = System.nanoTime();
    FetchResult result = assertTimeoutPreemptively(GIVE_UP, () -> source.fetch(request));

    assertEndedInTime(start, PULL_DEADLINE);
    FetchResult.Failed failed = assertInstanceOf(FetchResult.Failed.class, result);
    assertEquals(FailureReason.OCI_PULL_FAILED, failed.reason());
    assertTrue(failed.message().endsWith("timed out talking to the registry"), failed.message());
    String blob = "GET /v2/slow/app/blobs/" + layerDigest + " HTTP/1.1";
    assertTrue(server.requests().contains(blob), () -> "no blob read: " + server.requests());
  }

  @Test
  void anArtifactSentOneByteASecondEndsAtItsDeadline() {
    server.trickle("/artifact.tar.gz", 1000, Duration.ofSeconds(1));
    assertDownloadTimesOut();
  }

  @Test
  void anArtifactWhoseBodyNeverComesEndsAtItsDeadline() {
    // No byte after the headers: a read blocks until the deadline closes the body under it.
    server.trickle("/artifact.tar.gz", 1000, Duration.ofHours(1));
    assertDownloadTimesOut();
  }

  private void assertDownloadTimesOut() {
    ArtifactDownloads downloads =
        new ArtifactDownloads(
            store,
            Clock.systemUTC(),
            1 << 20,
            OciSourceOptions.DEFAULT_LIMITS,
            ArtifactUrlPolicy.of(List.of(server.url("/")), false));
    ArtifactDownloads.Wanted wanted =
        new ArtifactDownloads.Wanted(
            "externalartifact/ns/slow",
            server.url("/artifact.tar.gz"),
            "sha256:" + "0".repeat(64),
            "main@sha1:abc",
            Map.of());

    long start = System.nanoTime();
    SourceException e =
        assertTimeoutPreemptively(
            GIVE_UP,
            () -> assertThrows(SourceException.class, () -> downloads.fetch(wanted, DEADLINE)));

    assertEndedInTime(start, DEADLINE);
    assertEquals(FailureReason.OCI_PULL_FAILED, e.reason());
    assertEquals("timed out downloading the artifact", e.getMessage());
  }

  private static void assertEndedInTime(long start, Duration deadline) {
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(deadline.plus(LATE)) < 0, "the pull took " + took);
  }
}
