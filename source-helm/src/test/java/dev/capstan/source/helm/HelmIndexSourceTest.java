package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Downloads from a real HTTP server on loopback: stored, asked again conditionally, changed,
 * authenticated, redirected, refused and bounded.
 */
class HelmIndexSourceTest {
  private static final String KEY = "helmrepository/apps/podinfo";

  @TempDir Path storage;
  private ArtifactStore store;
  private HelmIndexSource source;
  private IndexServer server;

  @BeforeEach
  void start() throws IOException {
    store = new ArtifactStore(storage, Clock.systemUTC());
    source = new HelmIndexSource(store, Clock.systemUTC(), IndexLimits.DEFAULTS);
    server = IndexServer.http().serve(fixture("podinfo.yaml"));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void anUnchangedIndexIsOneConditionalRequestAndNothingStored() throws IOException {
    FetchResult first = source.fetch(HelmIndexRequest.of(KEY, server.url()));
    StoredArtifact stored = assertInstanceOf(FetchResult.Fetched.class, first).current();
    assertEquals(stored.digest(), stored.revision());
    assertTrue(Files.readString(HelmIndexSource.indexFile(stored)).contains("podinfo-6.5.4.tgz"));

    FetchResult again = source.fetch(HelmIndexRequest.of(KEY, server.url()));

    assertEquals(stored, assertInstanceOf(FetchResult.Unchanged.class, again).current());
    assertEquals(2, server.seen().size());
    IndexServer.Seen conditional = server.seen().get(1);
    assertEquals(server.etag(), conditional.header("If-None-Match"));
    assertEquals(304, conditional.status());
  }

  @Test
  void aChangedIndexIsANewRevisionAndTheSameEntriesInAnotherOrderAreNot() {
    StoredArtifact first = fetched(source.fetch(HelmIndexRequest.of(KEY, server.url())));

    server.serve(fixture("podinfo-reordered.json"));
    FetchResult reordered = source.fetch(HelmIndexRequest.of(KEY, server.url()));
    assertEquals(
        first.revision(),
        assertInstanceOf(FetchResult.Unchanged.class, reordered).current().revision());

    server.serve(
        new String(fixture("podinfo.yaml"), StandardCharsets.UTF_8)
            .replace("version: 18.0.0", "version: 18.0.1")
            .getBytes(StandardCharsets.UTF_8));
    StoredArtifact changed = fetched(source.fetch(HelmIndexRequest.of(KEY, server.url())));
    assertNotEquals(first.revision(), changed.revision());
  }

  @Test
  void aFailureKeepsTheLastGoodIndex() {
    StoredArtifact good = fetched(source.fetch(HelmIndexRequest.of(KEY, server.url())));

    server.failWith(500);
    FetchResult.Failed failed =
        assertInstanceOf(
            FetchResult.Failed.class, source.fetch(HelmIndexRequest.of(KEY, server.url())));
    assertEquals(FailureReason.INDEX_FETCH_FAILED, failed.reason());
    assertTrue(failed.message().endsWith("/charts/index.yaml answered HTTP 500"), failed.message());
    assertEquals(good, failed.lastGood().orElseThrow());

    server.failWith(0).serve("apiVersion: v2\nentries: {}\n".getBytes(StandardCharsets.UTF_8));
    FetchResult.Failed bad =
        assertInstanceOf(
            FetchResult.Failed.class, source.fetch(HelmIndexRequest.of(KEY, server.url())));
    assertEquals(FailureReason.INDEXATION_FAILED, bad.reason());
    assertEquals(good, bad.lastGood().orElseThrow());
    assertTrue(Files.isRegularFile(HelmIndexSource.indexFile(good)));
  }

  @Test
  void basicAuthenticationWithTheSecretsCredentialsNeverInAMessage() {
    server.requireBasic("reader", "s3cret-value");
    FetchResult.Failed anonymous =
        assertInstanceOf(
            FetchResult.Failed.class, source.fetch(HelmIndexRequest.of(KEY, server.url())));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, anonymous.reason());

    FetchResult.Failed wrong =
        assertInstanceOf(
            FetchResult.Failed.class,
            source.fetch(request(credentials("reader", "not-the-password")).withInsecure(true)));
    assertTrue(wrong.message().contains("credentials of spec.secretRef were refused"));
    assertFalse(wrong.message().contains("not-the-password"));

    fetched(source.fetch(request(credentials("reader", "s3cret-value")).withInsecure(true)));
  }

  @Test
  void credentialsGoOverPlainHttpOnlyWithInsecure() {
    FetchResult.Failed refused =
        assertInstanceOf(
            FetchResult.Failed.class, source.fetch(request(credentials("reader", "s3cret"))));

    assertEquals(FailureReason.INVALID_URL, refused.reason());
    assertTrue(server.seen().isEmpty());
  }

  @Test
  void credentialsFollowARedirectToAnotherOriginOnlyWithPassCredentials() {
    try (IndexServer other = IndexServer.http().serve(fixture("podinfo.yaml"))) {
      server.redirectTo(other.url().replace("/charts", ""));
      HelmIndexRequest request = request(credentials("reader", "s3cret")).withInsecure(true);

      fetched(source.fetch(request));
      assertEquals("Basic cmVhZGVyOnMzY3JldA==", server.seen().get(0).header("Authorization"));
      assertNull(other.seen().get(0).header("Authorization"));

      fetched(
          source.fetch(
              request
                  .withTarget(request.target().withKey(KEY + "-passed"))
                  .withPassCredentials(true)));
      assertEquals("Basic cmVhZGVyOnMzY3JldA==", other.seen().get(1).header("Authorization"));
    }
  }

  @Test
  void anIndexPastTheSizeBoundIsRefusedByItsBound() {
    HelmIndexSource small =
        new HelmIndexSource(store, Clock.systemUTC(), new IndexLimits(1000, 10, 8, 100, 2));

    FetchResult.Failed refused =
        assertInstanceOf(
            FetchResult.Failed.class, small.fetch(HelmIndexRequest.of(KEY, server.url())));

    assertEquals(FailureReason.INDEX_FETCH_FAILED, refused.reason());
    assertTrue(
        refused.message().contains("larger than 1000 bytes (the bound of an index)"),
        refused.message());
  }

  @Test
  void aServerThatDoesNotAnswerEndsAtTheTimeout() throws IOException {
    try (ServerSocket silent = new ServerSocket(0)) {
      long started = System.nanoTime();
      FetchResult.Failed failed =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  HelmIndexRequest.of(KEY, "http://127.0.0.1:" + silent.getLocalPort() + "/x")
                      .withTimeout(Duration.ofMillis(500))));

      assertEquals(FailureReason.INDEX_FETCH_FAILED, failed.reason());
      assertTrue(failed.message().contains("timed out"), failed.message());
      assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 10);
    }
  }

  @Test
  void aDeletedRepositoryIsForgottenWithItsIndex() throws IOException {
    StoredArtifact stored = fetched(source.fetch(HelmIndexRequest.of(KEY, server.url())));

    source.forget(KEY);

    assertTrue(source.lastArtifact(KEY).isEmpty());
    assertFalse(Files.exists(stored.path()));
  }

  private HelmIndexRequest request(Map<String, byte[]> credentials) {
    return HelmIndexRequest.of(KEY, server.url()).withCredentials(credentials);
  }

  private static Map<String, byte[]> credentials(String user, String password) {
    return Map.of(
        "username", user.getBytes(StandardCharsets.UTF_8),
        "password", password.getBytes(StandardCharsets.UTF_8));
  }

  private static StoredArtifact fetched(FetchResult result) {
    if (result instanceof FetchResult.Failed failed) {
      throw new AssertionError(failed.reason() + ": " + failed.message());
    }
    return assertInstanceOf(FetchResult.Fetched.class, result).current();
  }

  static byte[] fixture(String name) {
    try (InputStream in = IndexParserTest.resource(name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
