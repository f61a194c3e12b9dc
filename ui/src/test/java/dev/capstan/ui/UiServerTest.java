package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The view's server over real HTTP with a cluster that cannot be reached: nothing is served without
 * the start token or its cookie, the page is served, the data says why it is missing, and the Host,
 * Origin and session token checks hold.
 */
class UiServerTest {
  private KubernetesClient client;
  private UiServer ui;
  private String host;

  /** The access cookie the printed address gets a browser ({@code name=value}). */
  private String access;

  @BeforeEach
  void start() throws IOException {
    Config config =
        new ConfigBuilder()
            .withMasterUrl("https://127.0.0.1:1")
            .withOauthToken("t")
            .withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(500)
            .build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    ui = UiServer.start(client, UiOptions.on(loopback()));
    host = "127.0.0.1:" + ui.address().getPort();
    access = enter(ui);
  }

  @AfterEach
  void stop() {
    ui.close();
    client.close();
  }

  @Test
  void anUnreachableClusterIsSaidWhereTheDataWouldBe() {
    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () -> {
              String overview = get("/api/overview", access);
              assertTrue(overview.startsWith("HTTP/1.1 200"), overview);
              assertTrue(
                  overview.contains(
                      "\"kind\":\"Kustomizations\",\"message\":\"cannot list Kustomizations: "),
                  overview);
              assertTrue(overview.contains("\"kind\":\"GitRepositories\""), overview);
              assertTrue(overview.contains("\"kind\":\"OCIRepositories\""), overview);
            });
  }

  @Test
  void thePageCarriesASessionTokenAndAStrictPolicy() throws IOException {
    String page = get("/", access);

    assertTrue(page.startsWith("HTTP/1.1 200"), page);
    assertTrue(
        page.contains("Content-Security-Policy: default-src 'self'; script-src 'self'"), page);
    assertTrue(page.contains("SameSite=Strict"), page);
    assertTrue(page.contains("HttpOnly"), page);
    assertFalse(page.contains("{{TOKEN}}"));
    assertTrue(page.contains("<script src=\"/static/app.js\""), "bundled, no CDN");
    assertTrue(get("/static/app.js", access).contains("EventSource"));
  }

  @Test
  void aPageWithoutTheStartTokenIsRefused() throws IOException {
    String page = request("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");

    assertTrue(page.startsWith("HTTP/1.1 401"), page);
    assertFalse(page.contains("capstan-token"), page);
    assertTrue(page.contains("the address that capstan ui printed"), page);
    for (String path : List.of("/api/overview", "/api/graph.svg", "/static/app.js", "/events")) {
      String answer = get(path, "capstan-ui-access-" + ui.address().getPort() + "=guessed");
      assertTrue(answer.startsWith("HTTP/1.1 401"), path + ": " + answer);
    }
    String data = get("/api/overview", "");
    assertTrue(data.contains("\"message\":\"this browser is not let in"), data);
  }

  @Test
  void theStartTokenSetsAStrictCookieAndLeavesTheAddress() throws IOException {
    String token = ui.url().getRawQuery().substring("token=".length());
    String answer =
        request("GET /?" + ui.url().getRawQuery() + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n");

    assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
    String cookie = find(answer, "(Set-Cookie: capstan-ui-access-[^\r]+)");
    assertTrue(
        cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Strict")
            && cookie.contains("Path=/"),
        cookie);
    assertTrue(answer.contains("<meta http-equiv=\"refresh\" content=\"0;url=/\">"), answer);
    String body = answer.substring(answer.indexOf("\r\n\r\n"));
    assertFalse(body.contains(token), "the page it goes on to has no token: " + body);
    assertTrue(answer.contains("Cache-Control: no-store"), answer);

    String wrong = request("GET /?token=" + token + "x HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    assertTrue(wrong.startsWith("HTTP/1.1 401"), wrong);
    assertFalse(wrong.contains("Set-Cookie: capstan-ui-access"), wrong);
  }

  @Test
  void aForeignHostIsRefused() throws IOException {
    String answer =
        request(
            "GET /?"
                + ui.url().getRawQuery()
                + " HTTP/1.1\r\nHost: rebound.example:"
                + ui.address().getPort()
                + "\r\n\r\n");

    assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
    assertFalse(answer.contains("capstan-token"));
    assertFalse(answer.contains("Set-Cookie"), answer);
  }

  @Test
  void aForeignHostIsRefusedWhenServingBeyondLoopbackToo() throws IOException {
    try (UiServer remote =
        UiServer.start(
            client,
            UiOptions.on(new InetSocketAddress("0.0.0.0", 0))
                .withAllowedHosts(List.of("capstan.example")))) {
      int port = remote.address().getPort();
      String query = remote.url().getRawQuery();
      String rebound =
          request(
              port, "GET /?" + query + " HTTP/1.1\r\nHost: rebound.example:" + port + "\r\n\r\n");
      assertTrue(rebound.startsWith("HTTP/1.1 403"), rebound);
      String named =
          request(
              port, "GET /?" + query + " HTTP/1.1\r\nHost: capstan.example:" + port + "\r\n\r\n");
      assertTrue(named.startsWith("HTTP/1.1 200"), named);
    }
  }

  @Test
  void actionsNeedTheTokenTheCookieAndTheOrigin() throws IOException {
    String page = get("/", access);
    String cookies = access + "; " + find(page, "Set-Cookie: (capstan-ui-session=[^;]+)");
    String token = find(page, "name=\"capstan-token\" content=\"([^\"]+)\"");
    String action =
        "POST /api/ks/team/app/suspend HTTP/1.1\r\nHost: " + host + "\r\nContent-Length: 0\r\n";

    String noToken =
        request(action + "Origin: http://" + host + "\r\nCookie: " + cookies + "\r\n\r\n");
    assertTrue(noToken.startsWith("HTTP/1.1 403"), noToken);
    String otherSite =
        request(
            action
                + "Origin: http://evil.example\r\nCookie: "
                + cookies
                + "\r\nX-Capstan-Token: "
                + token
                + "\r\n\r\n");
    assertTrue(otherSite.startsWith("HTTP/1.1 403"), otherSite);
    assertTrue(otherSite.contains("does not come from this page"), otherSite);
    String noAccess =
        request(
            action
                + "Origin: http://"
                + host
                + "\r\nCookie: "
                + cookies.substring(access.length() + 2)
                + "\r\nX-Capstan-Token: "
                + token
                + "\r\n\r\n");
    assertTrue(noAccess.startsWith("HTTP/1.1 401"), noAccess);

    String allowed =
        request(
            action
                + "Origin: http://"
                + host
                + "\r\nCookie: "
                + cookies
                + "\r\nX-Capstan-Token: "
                + token
                + "\r\n\r\n");
    // Past the guard, the unreachable cluster answers: the patch is tried and its failure told.
    assertTrue(allowed.startsWith("HTTP/1.1 422"), allowed);
    assertTrue(allowed.contains("\"ok\":false"), allowed);
    assertFalse(allowed.contains("Exception"), "no stack trace or exception class: " + allowed);
  }

  @Test
  void driftIsStartedOnlyThroughTheGuardAndReadWithoutStartingIt() throws IOException {
    String page = get("/", access);
    String cookies = access + "; " + find(page, "Set-Cookie: (capstan-ui-session=[^;]+)");
    String token = find(page, "name=\"capstan-token\" content=\"([^\"]+)\"");
    String start =
        "POST /api/ks/team/app/drift HTTP/1.1\r\nHost: " + host + "\r\nContent-Length: 0\r\n";

    String otherSite =
        request(
            start
                + "Origin: http://evil.example\r\nCookie: "
                + cookies
                + "\r\nX-Capstan-Token: "
                + token
                + "\r\n\r\n");
    assertTrue(otherSite.startsWith("HTTP/1.1 403"), otherSite);
    String noToken =
        request(start + "Origin: http://" + host + "\r\nCookie: " + cookies + "\r\n\r\n");
    assertTrue(noToken.startsWith("HTTP/1.1 403"), noToken);
    String allowed =
        request(
            start
                + "Origin: http://"
                + host
                + "\r\nCookie: "
                + cookies
                + "\r\nX-Capstan-Token: "
                + token
                + "\r\n\r\n");
    // Past the guard: a Kustomization the view does not hold is not in the user's view.
    assertTrue(allowed.startsWith("HTTP/1.1 404"), allowed);
    assertTrue(allowed.contains("team/app is not in your view"), allowed);
    String read = get("/api/ks/team/app/drift", access);
    assertTrue(read.startsWith("HTTP/1.1 404"), read);
  }

  @Test
  void onlyGetAndActionsAreServed() throws IOException {
    String cookie = "\r\nCookie: " + access;
    assertTrue(
        request("DELETE /api/overview HTTP/1.1\r\nHost: " + host + cookie + "\r\n\r\n")
            .startsWith("HTTP/1.1 405"));
    assertTrue(get("/static/../index.html", access).startsWith("HTTP/1.1 4"));
    assertTrue(
        request(
                "POST /api/ks/a/b/delete HTTP/1.1\r\nHost: "
                    + host
                    + cookie
                    + "\r\nContent-Length: 0\r\n\r\n")
            .startsWith("HTTP/1.1 404"));
  }

  private static InetSocketAddress loopback() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  }

  /** Opens the printed address; returns the access cookie it set ({@code name=value}). */
  private static String enter(UiServer server) throws IOException {
    int port = server.address().getPort();
    String answer =
        request(
            port,
            "GET /?"
                + server.url().getRawQuery()
                + " HTTP/1.1\r\nHost: 127.0.0.1:"
                + port
                + "\r\n\r\n");
    return find(answer, "Set-Cookie: (capstan-ui-access-" + port + "=[^;]+)");
  }

  private String get(String path, String cookie) throws IOException {
    return request(
        "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nCookie: " + cookie + "\r\n\r\n");
  }

  private static String find(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertTrue(m.find(), () -> regex + " not in " + text);
    return m.group(1);
  }

  private String request(String raw) throws IOException {
    return request(ui.address().getPort(), raw);
  }

  private static String request(int port, String raw) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(raw.getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
