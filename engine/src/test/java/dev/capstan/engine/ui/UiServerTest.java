package dev.capstan.engine.ui;

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
import java.time.Clock;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The view's server over real HTTP with a cluster that cannot be reached: the page is served, the
 * data says why it is missing, and the Host, Origin and token checks hold.
 */
class UiServerTest {
  private KubernetesClient client;
  private UiServer ui;
  private String host;

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
    ui =
        UiServer.start(
            client,
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            false,
            Clock.systemUTC());
    host = "127.0.0.1:" + ui.address().getPort();
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
              String overview = request("GET /api/overview HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
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
    String page = request("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");

    assertTrue(page.startsWith("HTTP/1.1 200"), page);
    assertTrue(
        page.contains("Content-Security-Policy: default-src 'self'; script-src 'self'"), page);
    assertTrue(page.contains("SameSite=Strict"), page);
    assertTrue(page.contains("HttpOnly"), page);
    assertFalse(page.contains("{{TOKEN}}"));
    assertTrue(page.contains("<script src=\"/static/app.js\""), "bundled, no CDN");
    assertTrue(
        request("GET /static/app.js HTTP/1.1\r\nHost: " + host + "\r\n\r\n")
            .contains("EventSource"));
  }

  @Test
  void aForeignHostIsRefused() throws IOException {
    String answer =
        request("GET / HTTP/1.1\r\nHost: rebound.example:" + ui.address().getPort() + "\r\n\r\n");

    assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
    assertFalse(answer.contains("capstan-token"));
  }

  @Test
  void actionsNeedTheTokenTheCookieAndTheOrigin() throws IOException {
    String page = request("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    String cookie = find(page, "Set-Cookie: (capstan-ui-session=[^;]+)");
    String token = find(page, "name=\"capstan-token\" content=\"([^\"]+)\"");
    String action =
        "POST /api/ks/team/app/suspend HTTP/1.1\r\nHost: " + host + "\r\nContent-Length: 0\r\n";

    String noToken =
        request(action + "Origin: http://" + host + "\r\nCookie: " + cookie + "\r\n\r\n");
    assertTrue(noToken.startsWith("HTTP/1.1 403"), noToken);
    String otherSite =
        request(
            action
                + "Origin: http://evil.example\r\nCookie: "
                + cookie
                + "\r\nX-Capstan-Token: "
                + token
                + "\r\n\r\n");
    assertTrue(otherSite.startsWith("HTTP/1.1 403"), otherSite);
    assertTrue(otherSite.contains("does not come from this page"), otherSite);

    String allowed =
        request(
            action
                + "Origin: http://"
                + host
                + "\r\nCookie: "
                + cookie
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
    String page = request("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    String cookie = find(page, "Set-Cookie: (capstan-ui-session=[^;]+)");
    String token = find(page, "name=\"capstan-token\" content=\"([^\"]+)\"");
    String start =
        "POST /api/ks/team/app/drift HTTP/1.1\r\nHost: " + host + "\r\nContent-Length: 0\r\n";

    String otherSite =
        request(
            start
                + "Origin: http://evil.example\r\nCookie: "
                + cookie
                + "\r\nX-Capstan-Token: "
                + token
                + "\r\n\r\n");
    assertTrue(otherSite.startsWith("HTTP/1.1 403"), otherSite);
    String noToken =
        request(start + "Origin: http://" + host + "\r\nCookie: " + cookie + "\r\n\r\n");
    assertTrue(noToken.startsWith("HTTP/1.1 403"), noToken);
    String allowed =
        request(
            start
                + "Origin: http://"
                + host
                + "\r\nCookie: "
                + cookie
                + "\r\nX-Capstan-Token: "
                + token
                + "\r\n\r\n");
    // Past the guard: a Kustomization the view does not hold is not in the user's view.
    assertTrue(allowed.startsWith("HTTP/1.1 404"), allowed);
    assertTrue(allowed.contains("team/app is not in your view"), allowed);
    String read = request("GET /api/ks/team/app/drift HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
    assertTrue(read.startsWith("HTTP/1.1 404"), read);
  }

  @Test
  void onlyGetAndActionsAreServed() throws IOException {
    assertTrue(
        request("DELETE /api/overview HTTP/1.1\r\nHost: " + host + "\r\n\r\n")
            .startsWith("HTTP/1.1 405"));
    assertTrue(
        request("GET /static/../index.html HTTP/1.1\r\nHost: " + host + "\r\n\r\n")
            .startsWith("HTTP/1.1 4"));
    assertTrue(
        request(
                "POST /api/ks/a/b/delete HTTP/1.1\r\nHost: "
                    + host
                    + "\r\nContent-Length: 0\r\n\r\n")
            .startsWith("HTTP/1.1 404"));
  }

  private static String find(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertTrue(m.find(), () -> regex + " not in " + text);
    return m.group(1);
  }

  private String request(String raw) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), ui.address().getPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(raw.getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
