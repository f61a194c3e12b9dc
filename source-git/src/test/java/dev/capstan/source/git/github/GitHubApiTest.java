package dev.capstan.source.git.github;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.testing.TestPki;
import dev.capstan.testing.TestPki.KeyFormat;
import dev.capstan.testing.TestPki.KeyType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The token request against an https server on loopback that answers as the GitHub API documents
 * it, and checks the app's JSON Web Token with the app's public key.
 */
class GitHubApiTest {
  private static final TestPki PKI = TestPki.create("GitHub API test");
  private static final TestPki.Issued APP = PKI.client("app", KeyType.RSA);
  private static final String EXPIRES = "2099-01-01T00:00:00Z";

  private final List<String> requests = new CopyOnWriteArrayList<>();
  private HttpsServer server;

  @BeforeEach
  void start() throws Exception {
    TestPki.Issued certificate = PKI.server(KeyType.EC);
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(certificate.keyStore(), TestPki.PASSWORD.toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext("/api/v3/", this::answer);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String call = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
    requests.add(call);
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    if (auth == null
        || !auth.startsWith("Bearer ")
        || !signedByApp(auth.substring(7), APP.keys().getPublic(), "42")) {
      reply(exchange, 401, "{\"message\":\"A JSON web token could not be decoded\"}");
      return;
    }
    switch (call) {
      case "POST /api/v3/app/installations/7/access_tokens" ->
          reply(exchange, 201, "{\"token\":\"ghs_issued\",\"expires_at\":\"" + EXPIRES + "\"}");
      case "POST /api/v3/app/installations/8/access_tokens" ->
          reply(exchange, 201, "{\"token\":\"" + "x".repeat(100_000) + "\"}");
      case "GET /api/v3/users/capstan-user/installation" -> reply(exchange, 200, "{\"id\":7}");
      default -> reply(exchange, 404, "{\"message\":\"Not Found\"}");
    }
  }

  @Test
  void aTokenIsIssuedForTheInstallationIdWithTheAppsSignedToken() {
    InstallationToken token = api().issue(app("42", "7", null, true), data(true), deadline());
    assertEquals("ghs_issued", token.token());
    assertEquals(Instant.parse(EXPIRES), token.expiresAt());
    assertEquals(List.of("POST /api/v3/app/installations/7/access_tokens"), requests);
  }

  @Test
  void anOwnerIsLookedUpAsOrganizationThenAsUser() {
    InstallationToken token =
        api().issue(app("42", null, "capstan-user", true), data(true), deadline());
    assertEquals("ghs_issued", token.token());
    assertEquals(
        List.of(
            "GET /api/v3/orgs/capstan-user/installation",
            "GET /api/v3/users/capstan-user/installation",
            "POST /api/v3/app/installations/7/access_tokens"),
        requests);
  }

  @Test
  void anOwnerWithoutInstallationIsNamed() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> api().issue(app("42", null, "nobody", true), data(true), deadline()));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, e.reason());
    assertTrue(
        e.getMessage().contains("installed for no organization or user 'nobody'"), e.getMessage());
  }

  @Test
  void aKeyTheApiDoesNotKnowIsRefusedAsTheAppsKeyWithoutQuotingIt() {
    Map<String, byte[]> data = data(true);
    String otherKey = PKI.client("other", KeyType.RSA).keyPem(KeyFormat.TRADITIONAL);
    data.put("githubAppPrivateKey", otherKey.getBytes(StandardCharsets.UTF_8));
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> api().issue(GitHubAppSecret.read(data, false), data, deadline()));
    assertEquals(FailureReason.AUTHENTICATION_FAILED, e.reason());
    assertTrue(e.getMessage().contains("refused GitHub App 42 (401 Unauthorized)"), e.getMessage());
    assertTrue(e.getMessage().contains("'githubAppPrivateKey'"), e.getMessage());
    assertFalse(e.getMessage().contains("PRIVATE KEY"), e.getMessage());
  }

  @Test
  void anUnknownInstallationIsNamed() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> api().issue(app("42", "9", null, true), data(true), deadline()));
    assertTrue(
        e.getMessage().contains("has no installation 9 of GitHub App 42 (404 Not Found)"),
        e.getMessage());
  }

  @Test
  void anAnswerLargerThanTheLimitIsRefused() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> api().issue(app("42", "8", null, true), data(true), deadline()));
    assertTrue(e.getMessage().contains("more than 65536 bytes"), e.getMessage());
  }

  @Test
  void aServerTheSecretsAuthoritiesDoNotTrustFailsTheHandshake() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> api().issue(app("42", "7", null, false), data(false), deadline()));
    assertTrue(e.getMessage().contains("the TLS handshake with the GitHub API"), e.getMessage());
    assertTrue(e.getMessage().contains("'ca.crt'"), e.getMessage());
    assertTrue(requests.isEmpty());
  }

  private GitHubApi api() {
    return new GitHubApi(Clock.systemUTC());
  }

  private GitHubAppSecret app(String id, String installation, String owner, boolean ca) {
    Map<String, byte[]> data = data(ca);
    data.remove("githubAppInstallationID");
    if (installation != null) {
      data.put("githubAppInstallationID", installation.getBytes(StandardCharsets.UTF_8));
    }
    if (owner != null) {
      data.put("githubAppInstallationOwner", owner.getBytes(StandardCharsets.UTF_8));
    }
    data.put("githubAppID", id.getBytes(StandardCharsets.UTF_8));
    return GitHubAppSecret.read(data, false);
  }

  private Map<String, byte[]> data(boolean ca) {
    Map<String, byte[]> data = InstallationTokensTest.secret("42", "7", null);
    data.put(
        "githubAppPrivateKey", APP.keyPem(KeyFormat.TRADITIONAL).getBytes(StandardCharsets.UTF_8));
    data.put(
        "githubAppBaseURL",
        ("https://127.0.0.1:" + server.getAddress().getPort() + "/api/v3")
            .getBytes(StandardCharsets.UTF_8));
    if (ca) {
      data.put("ca.crt", PKI.caPem().getBytes(StandardCharsets.UTF_8));
    }
    return data;
  }

  private static Instant deadline() {
    return Instant.now().plusSeconds(30);
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  /** As GitHub checks an app's token: RS256 by the app's key, issued by the app, not expired. */
  static boolean signedByApp(String jwt, PublicKey key, String appId) {
    try {
      String[] parts = jwt.split("\\.");
      Signature verifier = Signature.getInstance("SHA256withRSA");
      verifier.initVerify(key);
      verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
      if (!verifier.verify(Base64.getUrlDecoder().decode(parts[2]))) {
        return false;
      }
      JsonNode claims = new ObjectMapper().readTree(Base64.getUrlDecoder().decode(parts[1]));
      long now = Instant.now().getEpochSecond();
      return appId.equals(claims.path("iss").asText())
          && claims.path("iat").asLong() <= now
          && claims.path("exp").asLong() > now
          && claims.path("exp").asLong() - now <= 600;
    } catch (Exception e) {
      return false;
    }
  }
}
