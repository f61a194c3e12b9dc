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
import dev.capstan.source.testing.TestCertificate;
import dev.capstan.source.testing.TestRepo;
import dev.capstan.testing.ForwardProxy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spec.proxySecretRef: HTTP(S) fetches go through the proxy the Secret names, with its username and
 * password when it has them, in answer to the proxy's challenge: on plain http requests and on the
 * CONNECT of an https tunnel, never to the remote itself.
 */
class ProxyIT {

  private static final String USER = "proxy-user";
  private static final String PASSWORD = "proxy-s3cret";

  @TempDir Path tmp;
  TestRepo repo;
  RevCommit head;

  @BeforeEach
  void setUp() throws Exception {
    repo = TestRepo.create(tmp.resolve("served/app"));
    head = repo.commit("first", Map.of("cm.yaml", "v\n"));
  }

  @AfterEach
  void tearDown() {
    repo.close();
  }

  private GitSource source(String store) {
    return new GitSource(
        GitSourceOptions.at(tmp.resolve(store))
            .withRetry(RetryPolicy.none())
            .withDefaultTimeout(Duration.ofSeconds(30)));
  }

  private static Map<String, byte[]> proxySecret(ForwardProxy proxy, String user, String password) {
    return Map.of(
        "address",
        proxy.address().getBytes(UTF_8),
        "username",
        user.getBytes(UTF_8),
        "password",
        password.getBytes(UTF_8));
  }

  @Test
  void fetchGoesThroughTheProxy() throws Exception {
    try (HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"));
        ForwardProxy proxy = ForwardProxy.start()) {
      FetchRequest request =
          FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
              .withProxy(Map.of("address", proxy.address().getBytes(UTF_8)));
      assertInstanceOf(FetchResult.Fetched.class, source("store").fetch(request));
      assertTrue(
          proxy.requestLines().stream()
              .anyMatch(l -> l.startsWith("GET " + server.url("app") + "/info/refs")),
          proxy.requestLines().toString());
      assertTrue(
          proxy.requestLines().stream()
              .anyMatch(l -> l.startsWith("POST " + server.url("app") + "/git-upload-pack")),
          proxy.requestLines().toString());
    }
  }

  @Test
  void httpRemoteThroughAProxyThatAsksForCredentials() throws Exception {
    try (HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"));
        ForwardProxy proxy = ForwardProxy.requiringBasicAuth(USER, PASSWORD)) {
      FetchResult result =
          source("store")
              .fetch(
                  FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
                      .withProxy(proxySecret(proxy, USER, PASSWORD)));

      StoredArtifact artifact =
          assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result)).current();
      assertEquals("main@sha1:" + head.name(), artifact.revision());
      assertTrue(
          proxy.requestLines().stream()
              .anyMatch(l -> l.startsWith("POST " + server.url("app") + "/git-upload-pack")),
          proxy.requestLines().toString());
      // The JDK answers the first challenge and sends the answer it keeps for this fetch with
      // every later request, also the streamed POST that it could not repeat after a 407.
      assertEquals(1, proxy.refusedRequestLines().size(), proxy.refusedRequestLines().toString());
      assertTrue(proxy.refusedRequestLines().get(0).startsWith("GET "));
      assertEquals(List.of(), server.authorizations());
      assertEquals(List.of(), server.proxyAuthorizations());
    }
  }

  @Test
  void httpsRemoteThroughATunnelOfAProxyThatAsksForCredentials() throws Exception {
    TestCertificate certificate = TestCertificate.create(tmp.resolve("tls"));
    try (HttpGitServer server = HttpGitServer.tls(tmp.resolve("served"), certificate);
        ForwardProxy proxy = ForwardProxy.requiringBasicAuth(USER, PASSWORD);
        AutoCloseable trusted = certificate.trustedByDefault()) {
      FetchResult result =
          source("store")
              .fetch(
                  FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
                      .withProxy(proxySecret(proxy, USER, PASSWORD)));

      StoredArtifact artifact =
          assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result)).current();
      assertEquals("main@sha1:" + head.name(), artifact.revision());
      assertTrue(server.url("app").startsWith("https://"));
      assertTrue(
          proxy.requestLines().stream()
              .allMatch(l -> l.startsWith("CONNECT 127.0.0.1:" + server.port() + " ")),
          proxy.requestLines().toString());
      assertEquals(1, proxy.refusedRequestLines().size(), "only the first CONNECT is challenged");
      assertEquals(
          List.of(), server.proxyAuthorizations(), "nothing of the proxy's inside the tunnel");
    }
  }

  @Test
  void wrongCredentialsAreAClearErrorThatNamesNeitherOfThem() throws Exception {
    TestCertificate certificate = TestCertificate.create(tmp.resolve("tls"));
    try (HttpGitServer plain = HttpGitServer.anonymous(tmp.resolve("served"));
        HttpGitServer tls = HttpGitServer.tls(tmp.resolve("served"), certificate);
        ForwardProxy proxy = ForwardProxy.requiringBasicAuth(USER, PASSWORD);
        AutoCloseable trusted = certificate.trustedByDefault()) {
      for (String url : List.of(plain.url("app"), tls.url("app"))) {
        FetchResult result =
            source("store-" + url.substring(0, 5))
                .fetch(
                    FetchRequest.of("ns/app", url, GitRef.branch("main"))
                        .withProxy(proxySecret(proxy, "intruder-name", "wrong-passw0rd")));

        FetchResult.Failed failed =
            assertInstanceOf(FetchResult.Failed.class, result, String.valueOf(result));
        assertEquals(FailureReason.AUTHENTICATION_FAILED, failed.reason(), failed.message());
        assertEquals(
            "failed to fetch branch 'main' from '"
                + url
                + "': the proxy "
                + proxy.address()
                + " refused the username and password of the proxy secret (407 Proxy Authentication"
                + " Required)",
            failed.message());
        assertFalse(failed.message().contains("intruder-name"));
        assertFalse(failed.message().contains("wrong-passw0rd"));
      }
      // Per URL: the unauthenticated first request, then the refused credentials once, not again.
      assertEquals(4, proxy.refusedRequestLines().size(), proxy.refusedRequestLines().toString());
      assertEquals(0, plain.requests() + tls.requests(), "nothing got past the proxy");
    }
  }

  @Test
  void credentialsAreNeverLogged() throws Exception {
    // The JDK's HTTP connections log each request's headers, Proxy-Authorization included, at
    // FINE: here everything is logged, as an operator's logging configuration might ask.
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    System.setErr(new PrintStream(captured, true, UTF_8));
    Logger root = Logger.getLogger("");
    Level level = root.getLevel();
    Handler handler = new ConsoleHandler();
    handler.setLevel(Level.ALL);
    root.setLevel(Level.ALL);
    root.addHandler(handler);
    try (HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"));
        ForwardProxy proxy = ForwardProxy.requiringBasicAuth(USER, PASSWORD);
        ForwardProxy refusing = ForwardProxy.requiringBasicAuth(USER, "another-pw")) {
      FetchRequest request = FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"));
      assertInstanceOf(
          FetchResult.Fetched.class,
          source("s1").fetch(request.withProxy(proxySecret(proxy, USER, PASSWORD))));
      assertInstanceOf(
          FetchResult.Failed.class,
          source("s2").fetch(request.withProxy(proxySecret(refusing, USER, PASSWORD))));
      Logger.getLogger(ProxyIT.class.getName()).fine("a FINE record is captured");
    } finally {
      root.removeHandler(handler);
      root.setLevel(level);
      System.setErr(stderr);
    }
    String log = captured.toString(UTF_8);
    stderr.print(log);
    assertTrue(
        log.contains("a FINE record is captured"), "FINE logs are captured during this test");
    String basic = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(UTF_8));
    assertFalse(log.contains(PASSWORD), "the password is never logged");
    assertFalse(log.contains(basic), "nor the Basic credentials");
  }

  @Test
  void proxyCredentialsLeaveTheOriginBoundRulesForTheRemotesOwnCredentials() throws Exception {
    try (HttpGitServer target = HttpGitServer.anonymous(tmp.resolve("served"));
        RedirectingServer redirect = RedirectingServer.to("http://127.0.0.1:" + target.port());
        ForwardProxy proxy = ForwardProxy.requiringBasicAuth(USER, PASSWORD)) {
      GitSource source =
          new GitSource(
              GitSourceOptions.at(tmp.resolve("store"))
                  .withCredentialsOverPlainHttp(true)
                  .withRetry(RetryPolicy.none()));
      FetchResult result =
          source.fetch(
              FetchRequest.of("ns/app", redirect.url("/git/app"), GitRef.branch("main"))
                  .withSecretData(Map.of("bearerToken", "tok-123456".getBytes(UTF_8)))
                  .withProxy(proxySecret(proxy, USER, PASSWORD)));

      assertInstanceOf(FetchResult.Fetched.class, result, String.valueOf(result));
      assertEquals(
          List.of("Bearer tok-123456"), redirect.authorizations().stream().distinct().toList());
      assertEquals(List.of(), target.authorizations(), "never to the origin redirected to");
      assertEquals(1, proxy.refusedRequestLines().size(), proxy.refusedRequestLines().toString());
    }
  }

  @Test
  void aProxyThatNeverAnswersTimesOut() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        HttpGitServer server = HttpGitServer.anonymous(tmp.resolve("served"))) {
      GitSource source =
          new GitSource(
              GitSourceOptions.at(tmp.resolve("store"))
                  .withRetry(RetryPolicy.none())
                  .withDefaultTimeout(Duration.ofSeconds(2)));
      long start = System.nanoTime();
      FetchResult result =
          source.fetch(
              FetchRequest.of("ns/app", server.url("app"), GitRef.branch("main"))
                  .withProxy(
                      Map.of(
                          "address",
                          ("http://127.0.0.1:" + silent.getLocalPort()).getBytes(UTF_8),
                          "username",
                          USER.getBytes(UTF_8),
                          "password",
                          PASSWORD.getBytes(UTF_8))));

      FetchResult.Failed failed =
          assertInstanceOf(FetchResult.Failed.class, result, String.valueOf(result));
      assertEquals(FailureReason.TIMEOUT, failed.reason(), failed.message());
      assertTrue(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 10);
    }
  }

  @Test
  void unusableProxySecretsAreRefusedBeforeAnyConnection() throws Exception {
    GitSource source = source("store");
    FetchRequest request =
        FetchRequest.of("ns/app", "https://example.invalid/app", GitRef.branch("main"));
    Map<Map<String, byte[]>, String> cases =
        Map.of(
            Map.of("username", "u".getBytes(UTF_8)),
            "the proxy secret has no 'address'",
            Map.of(
                "address",
                "http://127.0.0.1:3128".getBytes(UTF_8),
                "username",
                USER.getBytes(UTF_8)),
            "the proxy secret has a username but no password",
            Map.of(
                "address",
                "http://127.0.0.1:3128".getBytes(UTF_8),
                "password",
                PASSWORD.getBytes(UTF_8)),
            "the proxy secret has a password but no username",
            Map.of(
                "address",
                "socks5://127.0.0.1:1080".getBytes(UTF_8),
                "username",
                USER.getBytes(UTF_8),
                "password",
                PASSWORD.getBytes(UTF_8)),
            "the proxy secret has a username and password, but its 'address' is socks5://: proxy "
                + "credentials are supported for http:// proxy addresses only",
            Map.of(
                "address",
                "https://127.0.0.1:3128".getBytes(UTF_8),
                "username",
                USER.getBytes(UTF_8),
                "password",
                PASSWORD.getBytes(UTF_8)),
            "the proxy secret has a username and password, but its 'address' is https://: proxy "
                + "credentials are supported for http:// proxy addresses only");
    cases.forEach(
        (secret, message) -> {
          FetchResult.Failed failed =
              assertInstanceOf(FetchResult.Failed.class, source.fetch(request.withProxy(secret)));
          assertEquals(FailureReason.INVALID_SECRET, failed.reason());
          assertEquals(message, failed.message());
        });
  }
}
