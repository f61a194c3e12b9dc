package dev.capstan.source.git;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.TestRepo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetches over smart HTTP from an in-process server on loopback. The server speaks plain http, so
 * this source allows credentials over it; {@link HttpCredentialsIT} covers the default refusal.
 */
class HttpFetchIT {

  @TempDir Path tmp;
  TestRepo repo;
  RevCommit head;
  GitSource source;

  @BeforeEach
  void setUp() throws Exception {
    repo = TestRepo.create(tmp.resolve("served/app"));
    head = repo.commit("first", Map.of("deploy.yaml", "kind: ConfigMap\n"));
    source =
        new GitSource(
            GitSourceOptions.at(tmp.resolve("store"))
                .withCredentialsOverPlainHttp(true)
                .withRetry(new RetryPolicy(3, Duration.ofMillis(1), 2.0)));
  }

  @AfterEach
  void tearDown() {
    repo.close();
  }

  @Test
  void anonymousFetchThenUnchangedWithOneRequest() throws Exception {
    try (HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"))) {
      FetchRequest request = FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"));
      StoredArtifact a =
          assertInstanceOf(FetchResult.Fetched.class, source.fetch(request)).current();
      assertEquals("main@sha1:" + head.name(), a.revision());
      assertEquals("kind: ConfigMap\n", Files.readString(a.path().resolve("deploy.yaml")));

      int before = server.requests();
      assertInstanceOf(FetchResult.Unchanged.class, source.fetch(request));
      assertTrue(
          server.requests() - before <= 2,
          "an unchanged ref costs one ref listing, no fetch: " + (server.requests() - before));

      RevCommit next = repo.commit("second", Map.of("deploy.yaml", "kind: Secret\n"));
      StoredArtifact b =
          assertInstanceOf(FetchResult.Fetched.class, source.fetch(request)).current();
      assertEquals("main@sha1:" + next.name(), b.revision());
      Path cache = tmp.resolve("store/sources").resolve(ArtifactStore.dirName("ns/app"));
      assertTrue(Files.exists(cache.resolve("git/shallow")), "branch fetches are shallow");
    }
  }

  @Test
  void basicAuth() throws Exception {
    try (HttpGitServer server =
        HttpGitServer.basicAuth(tmp.resolve("served"), "alice", "s3cret!")) {
      FetchRequest request = FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"));
      StoredArtifact good =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(
                      request.withSecretData(
                          Map.of(
                              "username",
                              "alice".getBytes(UTF_8),
                              "password",
                              "s3cret!".getBytes(UTF_8)))))
              .current();

      repo.commit("second", Map.of("x", "y"));
      FetchResult.Failed wrong =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  request.withSecretData(
                      Map.of(
                          "username",
                          "alice".getBytes(UTF_8),
                          "password",
                          "wrong-password".getBytes(UTF_8)))));
      assertEquals(FailureReason.AUTHENTICATION_FAILED, wrong.reason(), wrong.message());
      assertFalse(wrong.message().contains("wrong-password"), wrong.message());
      assertEquals(good, wrong.lastGood().orElseThrow());
      assertTrue(Files.isDirectory(good.path()));

      FetchResult.Failed none = assertInstanceOf(FetchResult.Failed.class, source.fetch(request));
      assertEquals(FailureReason.AUTHENTICATION_FAILED, none.reason(), none.message());

      String withUserInfo = server.url("app").replace("http://", "http://alice:leaked-pw@");
      FetchResult.Failed inUrl =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(FetchRequest.of("ns/app", withUserInfo, GitRef.branch("main"))));
      assertFalse(inUrl.message().contains("leaked-pw"), inUrl.message());
      assertFalse(inUrl.message().contains("alice"), inUrl.message());
    }
  }

  @Test
  void bearerToken() throws Exception {
    try (HttpGitServer server = HttpGitServer.bearer(tmp.resolve("served"), "tok-123456")) {
      FetchRequest request = FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"));
      StoredArtifact a =
          assertInstanceOf(
                  FetchResult.Fetched.class,
                  source.fetch(
                      request.withSecretData(Map.of("bearerToken", "tok-123456".getBytes(UTF_8)))))
              .current();
      assertEquals("main@sha1:" + head.name(), a.revision());

      FetchResult.Failed wrong =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  request.withSecretData(Map.of("bearerToken", "tok-wrong-99".getBytes(UTF_8)))));
      assertEquals(FailureReason.AUTHENTICATION_FAILED, wrong.reason(), wrong.message());
      assertFalse(wrong.message().contains("tok-wrong-99"));
    }
  }

  @Test
  void missingRepositoryAndMissingRef() throws Exception {
    try (HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"))) {
      FetchResult.Failed noRepo =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  FetchRequest.of("ns/x", server.url("nothing-here"), GitRef.branch("main"))));
      assertEquals(FailureReason.GIT_OPERATION_FAILED, noRepo.reason(), noRepo.message());
      assertTrue(noRepo.message().contains("nothing-here"), noRepo.message());

      FetchResult.Failed noRef =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(FetchRequest.of("ns/app", server.url("app"), GitRef.tag("v9"))));
      assertEquals(FailureReason.REF_NOT_FOUND, noRef.reason(), noRef.message());
    }
  }

  @Test
  void unreachableServerIsRetriedThenReported() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    FetchResult.Failed f =
        assertInstanceOf(
            FetchResult.Failed.class,
            source.fetch(
                FetchRequest.of(
                    "ns/app", "http://127.0.0.1:" + port + "/git/app", GitRef.branch("main"))));
    assertEquals(FailureReason.GIT_OPERATION_FAILED, f.reason(), f.message());
    assertTrue(f.message().contains("127.0.0.1:" + port), f.message());
  }

  @Test
  void transientErrorsAreRetriedUpToTheLimit() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                while (!s.isClosed()) {
                  try (Socket c = s.accept()) {
                    connections.incrementAndGet(); // and hang up at once
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      FetchRequest request =
          FetchRequest.of(
              "ns/app", "http://127.0.0.1:" + s.getLocalPort() + "/git/app", GitRef.branch("main"));
      GitSource once =
          new GitSource(GitSourceOptions.at(tmp.resolve("store1")).withRetry(RetryPolicy.none()));
      assertInstanceOf(FetchResult.Failed.class, once.fetch(request));
      int perAttempt = connections.getAndSet(0);
      assertTrue(perAttempt >= 1);

      FetchResult.Failed f = assertInstanceOf(FetchResult.Failed.class, source.fetch(request));
      assertEquals(FailureReason.GIT_OPERATION_FAILED, f.reason(), f.message());
      assertEquals(3 * perAttempt, connections.get(), "three attempts as the policy allows");
    }
  }

  @Test
  void timeoutIsHonoured() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket c = silent.accept()) {
                  Thread.sleep(10_000); // accepts, never answers
                } catch (IOException | InterruptedException e) {
                  // closed by the test
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      long start = System.nanoTime();
      FetchResult.Failed f =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  FetchRequest.of(
                          "ns/app",
                          "http://127.0.0.1:" + silent.getLocalPort() + "/git/app",
                          GitRef.branch("main"))
                      .withTimeout(Duration.ofSeconds(1))));
      long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
      assertEquals(FailureReason.TIMEOUT, f.reason(), f.message());
      assertTrue(f.message().toLowerCase().contains("timed out"), f.message());
      assertTrue(seconds < 8, "gave up after " + seconds + "s");
    }
  }
}
