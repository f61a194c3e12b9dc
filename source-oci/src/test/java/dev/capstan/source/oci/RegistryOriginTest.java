package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The registry's credentials stay with the registry's origin, against real HTTP servers on
 * loopback: the registry on {@code 127.0.0.1}, another origin on {@code localhost} at another port.
 */
class RegistryOriginTest {
  private static final String USER = "tenant";
  private static final String PASSWORD = "registry-password";

  private final List<HttpServer> servers = new CopyOnWriteArrayList<>();

  /** Every request the other origin received, as "METHOD path Authorization". */
  private final List<String> elsewhere = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(s -> s.stop(0));
  }

  @Test
  void aTagListPageOnAnotherOriginIsRefusedAndGetsNoCredentials() throws Exception {
    HttpServer other = server();
    recordEverything(other);
    HttpServer registry = server();
    registry.createContext(
        "/v2/app/tags/list",
        exchange -> {
          if (!basicAuthorized(exchange)) {
            challenge(exchange, "Basic realm=\"registry\"");
            return;
          }
          exchange
              .getResponseHeaders()
              .add(
                  "Link",
                  "<http://localhost:"
                      + other.getAddress().getPort()
                      + "/v2/app/tags/list?last=v1>; rel=\"next\"");
          respond(exchange, 200, "{\"name\":\"app\",\"tags\":[\"v1\"]}");
        });

    SourceException refused =
        assertThrows(SourceException.class, () -> new Registry(client(registry)).tags());

    assertEquals(FailureReason.READ_OPERATION_FAILED, refused.reason());
    assertTrue(refused.getMessage().contains("another origin"), refused.getMessage());
    assertEquals(List.of(), elsewhere, "the other origin was asked");
  }

  @Test
  void aChallengeFromTheOriginARedirectLeadsToIsNotAnswered() throws Exception {
    HttpServer other = server();
    String otherOrigin = "http://localhost:" + other.getAddress().getPort();
    other.createContext(
        "/",
        exchange -> {
          record(exchange);
          challenge(exchange, "Bearer realm=\"" + otherOrigin + "/token\",service=\"other\"");
        });
    HttpServer registry = server();
    registry.createContext(
        "/v2/app/manifests/v1",
        exchange -> {
          exchange.getResponseHeaders().add("Location", otherOrigin + "/manifest");
          respond(exchange, 307, "");
        });

    SourceException refused =
        assertThrows(SourceException.class, () -> new Registry(client(registry)).resolve("v1"));

    assertEquals(FailureReason.AUTHENTICATION_FAILED, refused.reason());
    assertTrue(refused.getMessage().contains("another origin"), refused.getMessage());
    assertEquals(List.of("HEAD /manifest -"), elsewhere, "the token realm was asked");
  }

  @Test
  void theRegistrysOwnChallengeIsStillAnswered() throws Exception {
    HttpServer registry = server();
    registry.createContext(
        "/v2/app/manifests/v1",
        exchange -> {
          if (!basicAuthorized(exchange)) {
            challenge(exchange, "Basic realm=\"registry\"");
            return;
          }
          exchange.getResponseHeaders().add("Docker-Content-Digest", "sha256:" + "a".repeat(64));
          respond(exchange, 200, "");
        });

    assertEquals("sha256:" + "a".repeat(64), new Registry(client(registry)).resolve("v1"));
  }

  // ---- helpers ----------------------------------------------------------------------------

  private HttpServer server() throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.start();
    servers.add(server);
    return server;
  }

  private void recordEverything(HttpServer server) {
    server.createContext(
        "/",
        exchange -> {
          record(exchange);
          respond(exchange, 200, "{\"tags\":[\"stolen\"]}");
        });
  }

  private void record(HttpExchange exchange) {
    elsewhere.add(
        exchange.getRequestMethod()
            + " "
            + exchange.getRequestURI().getPath()
            + " "
            + Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization"))
                .orElse("-"));
  }

  private static boolean basicAuthorized(HttpExchange exchange) {
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    return expected.equals(exchange.getRequestHeaders().getFirst("Authorization"));
  }

  private static void challenge(HttpExchange exchange, String header) throws IOException {
    exchange.getResponseHeaders().add("WWW-Authenticate", header);
    respond(exchange, 401, "");
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    boolean empty = bytes.length == 0 || "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, empty ? -1 : bytes.length);
    if (!empty) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  /** A client of repository {@code app} on {@code registry}, plain http as on loopback. */
  private static RegistryClient client(HttpServer registry) {
    Clock clock = Clock.systemUTC();
    HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    return new RegistryClient(
        http,
        "http",
        OciUrl.parse("oci://127.0.0.1:" + registry.getAddress().getPort() + "/app"),
        Optional.of(new RegistryCredentials(USER, PASSWORD)),
        new TokenCache(clock),
        "pull",
        clock.instant().plus(Duration.ofSeconds(20)),
        clock,
        true,
        ReadDeadlines.withOwnThread(clock));
  }
}
