package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.testing.GitHubAppEndpoint;
import dev.capstan.testing.TestPki;
import dev.capstan.testing.TestPki.KeyFormat;
import dev.capstan.testing.TestPki.KeyType;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spec.provider: github}: the engine signs the app's JSON Web Token with the Secret's key,
 * asks a server that answers as the GitHub API documents it for an installation token, and fetches
 * a real repository over https with it; the token is kept until shortly before it expires, and is
 * never shown.
 */
class GitHubAppAuthIT extends EngineTestBase {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final long APP = 42;
  private static final long LONG_LIVED = 7;
  private static final long SHORT_LIVED = 8;

  /** Five minutes (the margin before expiry) and a few seconds of use. */
  private static final Duration SHORT = Duration.ofMinutes(5).plusSeconds(4);

  @Test
  void anInstallationTokenFetchesTheRepositoryIsReusedAndRenewedAndNeverShown(@TempDir Path dir)
      throws Exception {
    TestPki pki = TestPki.create("GitHub test CA");
    TestPki.Issued app = pki.client("app", KeyType.RSA);
    GitHubAppEndpoint github =
        new GitHubAppEndpoint(
            APP,
            app.keys().getPublic(),
            Map.of(LONG_LIVED, Duration.ofHours(1), SHORT_LIVED, SHORT));
    try (GitFixture served = GitFixture.createGitHubApp(dir, pki.server(KeyType.EC), github)) {
      String first = served.commit(Map.of("app/cm.yaml", Manifests.configMap("app", "one")));
      String key = app.keyPem(KeyFormat.TRADITIONAL);
      engine.secret("app", appSecret(served, pki, LONG_LIVED, key));
      engine.gitRepository("via-app", served.url(), "  provider: github\n  secretRef: {name: app}");

      engine.awaitSourceCondition("via-app", "Ready", WAIT, EngineTestBase::isTrue);
      assertEquals(first, engine.gitRepository("via-app").getStatus().artifact().revision());
      assertEquals(1, github.tokenRequests(LONG_LIVED));

      String second = served.commit(Map.of("app/cm.yaml", Manifests.configMap("app", "two")));
      engine.requestReconcile(GitRepository.class, "via-app");
      EngineFixture.eventually(WAIT).until(() -> second.equals(artifactRevision("via-app")));
      assertEquals(1, github.tokenRequests(LONG_LIVED), "the kept token was used again");

      engine.secret("short", appSecret(served, pki, SHORT_LIVED, key));
      engine.gitRepository(
          "short-lived", served.url(), "  provider: github\n  secretRef: {name: short}");
      engine.awaitSourceCondition("short-lived", "Ready", WAIT, EngineTestBase::isTrue);
      assertEquals(1, github.tokenRequests(SHORT_LIVED));
      Instant stale = Instant.now().plus(SHORT).minus(Duration.ofMinutes(5));
      EngineFixture.eventually(WAIT).until(() -> Instant.now().isAfter(stale));
      String third = served.commit(Map.of("app/cm.yaml", Manifests.configMap("app", "three")));
      engine.requestReconcile(GitRepository.class, "short-lived");
      EngineFixture.eventually(WAIT).until(() -> third.equals(artifactRevision("short-lived")));
      // at least 2: a scheduled reconcile after the token went stale renews it too
      assertTrue(github.tokenRequests(SHORT_LIVED) >= 2, "a token about to expire was renewed");

      String otherKey = pki.client("not-the-app", KeyType.RSA).keyPem(KeyFormat.TRADITIONAL);
      engine.secret("wrong-key", appSecret(served, pki, LONG_LIVED, otherKey));
      engine.gitRepository(
          "wrong-key", served.url(), "  provider: github\n  secretRef: {name: wrong-key}");
      Condition refused =
          engine.awaitSourceCondition("wrong-key", "Ready", WAIT, EngineTestBase::isFalse);
      assertEquals("AuthenticationFailed", refused.getReason());
      assertTrue(
          refused.getMessage().contains("refused GitHub App 42 (401 Unauthorized)"),
          refused.getMessage());
      assertNull(engine.gitRepository("wrong-key").getStatus().artifact());

      List<String> tokens = github.issuedTokens();
      assertTrue(tokens.size() >= 3, "tokens issued: " + tokens.size());
      for (String name : List.of("via-app", "short-lived", "wrong-key")) {
        String status =
            new ObjectMapper().writeValueAsString(engine.gitRepository(name).getStatus());
        for (String token : tokens) {
          assertFalse(status.contains(token), name + "'s status shows a token: " + status);
        }
        assertFalse(status.contains("PRIVATE KEY"), status);
      }
    }
  }

  @Test
  void cloudProvidersAreAcceptedByTheSchemaAndRefusedByName() {
    engine.gitRepository(
        "azure",
        "https://dev.azure.com/org/project/_git/repo",
        "  provider: azure\n  serviceAccountName: reader");
    Condition stalled =
        engine.awaitSourceCondition("azure", "Stalled", WAIT, EngineTestBase::isTrue);
    assertEquals("InvalidSpec", stalled.getReason());
    assertTrue(stalled.getMessage().contains("spec.provider 'azure'"), stalled.getMessage());
    assertTrue(stalled.getMessage().contains("'reader'"), stalled.getMessage());

    KubernetesClientException e =
        assertThrows(
            KubernetesClientException.class,
            () ->
                engine.gitRepository(
                    "github-with-account",
                    "https://github.com/org/repo",
                    "  provider: github\n  serviceAccountName: reader"));
    assertTrue(
        e.getMessage().contains("serviceAccountName can only be set when provider is"),
        e.getMessage());
  }

  private static Map<String, String> appSecret(
      GitFixture served, TestPki pki, long installation, String key) {
    return Map.of(
        "githubAppID", Long.toString(APP),
        "githubAppInstallationID", Long.toString(installation),
        "githubAppPrivateKey", key,
        "githubAppBaseURL", served.apiUrl(),
        "ca.crt", pki.caPem());
  }

  private static String artifactRevision(String name) {
    var status = engine.gitRepository(name).getStatus();
    return status == null || status.artifact() == null ? null : status.artifact().revision();
  }
}
