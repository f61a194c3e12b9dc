package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.oci.testing.Layers;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ExternalArtifact's file, from a real HTTP server on loopback: downloaded only where the policy
 * allows, and a failure that says nothing of what the server answered.
 */
class ArtifactDownloadsTest {
  @TempDir Path dir;

  private HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private byte[] tarball;
  private String origin;

  @BeforeEach
  void serve() throws Exception {
    tarball = new Layers().file("cm.yaml", "kind: ConfigMap\n").bytes();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.add(exchange.getRequestURI().getPath());
          boolean found = exchange.getRequestURI().getPath().equals("/artifact.tar.gz");
          exchange.sendResponseHeaders(found ? 200 : 404, found ? tarball.length : -1);
          if (found) {
            exchange.getResponseBody().write(tarball);
          }
          exchange.close();
        });
    server.start();
    origin = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void aFileUnderAnAllowedPrefixIsStored() {
    StoredArtifact stored =
        downloads(allowingServer()).fetch(wanted(origin + "/artifact.tar.gz", digest()), timeout());
    assertTrue(Files.isRegularFile(stored.path().resolve("cm.yaml")));
  }

  @Test
  void withoutAPrefixTheLoopbackServerIsNeverAsked() {
    SourceException refused =
        assertThrows(
            SourceException.class,
            () ->
                downloads(ArtifactUrlPolicy.DEFAULT)
                    .fetch(wanted(origin + "/artifact.tar.gz", digest()), timeout()));
    assertEquals(FailureReason.INVALID_URL, refused.reason());
    assertEquals(List.of(), requests);
  }

  @Test
  void aStoredFileIsNotUsedOnceItsUrlIsRefused() {
    downloads(allowingServer()).fetch(wanted(origin + "/artifact.tar.gz", digest()), timeout());
    assertThrows(
        SourceException.class,
        () ->
            downloads(ArtifactUrlPolicy.DEFAULT)
                .fetch(wanted(origin + "/artifact.tar.gz", digest()), timeout()));
  }

  @Test
  void aMissingFileADigestMismatchAndAClosedPortFailAlikeSayingNothingOfTheAnswer()
      throws Exception {
    int closed;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = free.getLocalPort();
    }
    ArtifactUrlPolicy policy =
        ArtifactUrlPolicy.of(List.of(origin + "/", "http://127.0.0.1:" + closed + "/"), false);
    ArtifactDownloads downloads = downloads(policy);
    String otherDigest = "sha256:" + "0".repeat(64);

    List<SourceException> failures =
        List.of(
            assertThrows(
                SourceException.class,
                () -> downloads.fetch(wanted(origin + "/missing.tar.gz", digest()), timeout())),
            assertThrows(
                SourceException.class,
                () -> downloads.fetch(wanted(origin + "/artifact.tar.gz", otherDigest), timeout())),
            assertThrows(
                SourceException.class,
                () ->
                    downloads.fetch(
                        wanted("http://127.0.0.1:" + closed + "/artifact.tar.gz", digest()),
                        timeout())));

    for (SourceException failure : failures) {
      assertEquals(FailureReason.OCI_PULL_FAILED, failure.reason());
      assertEquals(ArtifactDownloads.DOWNLOAD_FAILED, failure.getMessage());
      assertFalse(failure.getMessage().contains("404"));
      assertFalse(failure.getMessage().contains(digest()));
      assertFalse(failure.getMessage().contains("Exception"));
    }
  }

  private ArtifactUrlPolicy allowingServer() {
    return ArtifactUrlPolicy.of(List.of(origin + "/"), false);
  }

  private ArtifactDownloads downloads(ArtifactUrlPolicy policy) {
    return new ArtifactDownloads(
        new ArtifactStore(dir, Clock.systemUTC()),
        Clock.systemUTC(),
        OciSourceOptions.DEFAULT_LAYER_LIMIT,
        OciSourceOptions.DEFAULT_LIMITS,
        policy);
  }

  private String digest() {
    return Registry.digestOf(tarball);
  }

  private static ArtifactDownloads.Wanted wanted(String url, String digest) {
    return new ArtifactDownloads.Wanted(
        "externalartifact/ns/name", url, digest, "main@sha1:abc", Map.of());
  }

  private static Duration timeout() {
    return Duration.ofSeconds(10);
  }
}
