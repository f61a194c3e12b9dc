package dev.capstan.source.git;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.store.FetchResult;
import dev.capstan.source.core.store.StoredArtifact;
import dev.capstan.source.git.transport.RetryPolicy;
import dev.capstan.source.testing.HttpGitServer;
import dev.capstan.source.testing.RedirectingServer;
import dev.capstan.source.testing.TestRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where HTTP credentials go: never to another origin after a redirect, and not over plain http
 * unless the caller allows it. Real servers on loopback; another port is another origin.
 */
class HttpCredentialsIT {

  private static final Map<String, byte[]> BASIC =
      Map.of("username", "alice".getBytes(UTF_8), "password", "s3cret-pw".getBytes(UTF_8));
  private static final Map<String, byte[]> BEARER =
      Map.of("bearerToken", "tok-123456".getBytes(UTF_8));

  @TempDir Path tmp;
  TestRepo repo;
  RevCommit head;

  @BeforeEach
  void setUp() throws Exception {
    repo = TestRepo.create(tmp.resolve("served/app"));
    head = repo.commit("first", Map.of("deploy.yaml", "kind: ConfigMap\n"));
  }

  @AfterEach
  void tearDown() {
    repo.close();
  }

  /** Plain http is allowed here: the servers have no TLS, and the redirect is what is tested. */
  private GitSource overPlainHttp(String store) {
    return new GitSource(
        GitSourceOptions.at(tmp.resolve(store))
            .withCredentialsOverPlainHttp(true)
            .withRetry(RetryPolicy.none())
            .withDefaultTimeout(Duration.ofSeconds(30)));
  }

  private static String base(HttpGitServer server) {
    return "http://127.0.0.1:" + server.port();
  }

  @Test
  void bearerTokenIsNotSentToAnotherOriginAfterARedirect() throws Exception {
    try (HttpGitServer target = HttpGitServer.anonymous(tmp.resolve("served"));
        RedirectingServer redirect = RedirectingServer.to(base(target))) {
      FetchResult result =
          overPlainHttp("s1")
              .fetch(
                  FetchRequest.of("ns/app", redirect.url("/git/app"), GitRef.branch("main"))
                      .withSecretData(BEARER));

      StoredArtifact a =
          assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result)).current();
      assertEquals("main@sha1:" + head.name(), a.revision());
      assertFalse(redirect.authorizations().isEmpty());
      assertEquals(
          List.of("Bearer tok-123456"),
          redirect.authorizations().stream().distinct().toList(),
          "the token goes to the URL's own origin");
      assertEquals(List.of(), target.authorizations(), "and never to the origin redirected to");
    }
  }

  @Test
  void basicCredentialsAreNotSentToAnotherOriginEvenWhenItAsksForThem() throws Exception {
    try (HttpGitServer target =
            HttpGitServer.basicAuth(tmp.resolve("served"), "alice", "s3cret-pw");
        RedirectingServer redirect = RedirectingServer.to(base(target))) {
      FetchResult.Failed failed =
          assertInstanceOf(
              FetchResult.Failed.class,
              overPlainHttp("s2")
                  .fetch(
                      FetchRequest.of("ns/app", redirect.url("/git/app"), GitRef.branch("main"))
                          .withSecretData(BASIC)));

      assertEquals(FailureReason.AUTHENTICATION_FAILED, failed.reason(), failed.message());
      assertTrue(failed.message().contains("redirected to another origin"), failed.message());
      assertFalse(failed.message().contains("s3cret-pw"), failed.message());
      assertTrue(target.requests() > 0, "the redirect was followed");
      assertEquals(List.of(), target.authorizations(), "a 401 from there got no credentials");
    }
  }

  @Test
  void bearerTokenIsNotSentToAnotherOriginThatAsksForIt() throws Exception {
    try (HttpGitServer target = HttpGitServer.bearer(tmp.resolve("served"), "tok-123456");
        RedirectingServer redirect = RedirectingServer.to(base(target))) {
      FetchResult.Failed failed =
          assertInstanceOf(
              FetchResult.Failed.class,
              overPlainHttp("s3")
                  .fetch(
                      FetchRequest.of("ns/app", redirect.url("/git/app"), GitRef.branch("main"))
                          .withSecretData(BEARER)));

      assertEquals(FailureReason.AUTHENTICATION_FAILED, failed.reason(), failed.message());
      assertEquals(List.of(), target.authorizations());
    }
  }

  @Test
  void credentialsStillFollowARedirectWithinTheSameOrigin() throws Exception {
    try (HttpGitServer server =
        HttpGitServer.basicAuth(tmp.resolve("served"), "alice", "s3cret-pw")) {
      FetchResult result =
          overPlainHttp("s4")
              .fetch(
                  FetchRequest.of("ns/app", server.movedUrl("app"), GitRef.branch("main"))
                      .withSecretData(BASIC));

      StoredArtifact a =
          assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result)).current();
      assertEquals("main@sha1:" + head.name(), a.revision());
    }
  }

  @Test
  void basicAuthOverPlainHttpIsRefusedBeforeAnyRequest() throws Exception {
    assertRefusedOverPlainHttp(BASIC, "", "the secret's username and password");
  }

  @Test
  void bearerTokenOverPlainHttpIsRefusedBeforeAnyRequest() throws Exception {
    assertRefusedOverPlainHttp(BEARER, "", "the secret's bearerToken");
  }

  @Test
  void passwordInAnHttpUrlIsRefusedBeforeAnyRequest() throws Exception {
    assertRefusedOverPlainHttp(Map.of(), "alice:url-pw-123@", "the password in the URL");
  }

  private void assertRefusedOverPlainHttp(Map<String, byte[]> secret, String userinfo, String what)
      throws Exception {
    try (HttpGitServer server =
        HttpGitServer.basicAuth(tmp.resolve("served"), "alice", "s3cret-pw")) {
      GitSource source = new GitSource(GitSourceOptions.at(tmp.resolve("store")));
      String url = server.url("app").replace("http://", "http://" + userinfo);

      FetchResult.Failed failed =
          assertInstanceOf(
              FetchResult.Failed.class,
              source.fetch(
                  FetchRequest.of("ns/app", url, GitRef.branch("main")).withSecretData(secret)));

      assertEquals(FailureReason.INVALID_URL, failed.reason(), failed.message());
      assertEquals(
          what
              + " would be sent unencrypted to '"
              + server.url("app")
              + "': credentials are sent only over https, use an https:// URL",
          failed.message());
      assertEquals(0, server.requests(), "nothing was sent");
    }
  }
}
