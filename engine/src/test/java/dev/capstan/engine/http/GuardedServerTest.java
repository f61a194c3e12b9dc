package dev.capstan.engine.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server's deadlines and caps, with real sockets on loopback. */
class GuardedServerTest {
  private static final String HALF_REQUEST = "GET /ok HTTP/1.1\r\nHost: loc";
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final List<SlowClient> clients = new ArrayList<>();
  private GuardedServer server;

  private static final class Ok extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      response.setStatus(200);
      Content.Sink.write(response, true, "ok\n", callback);
      return true;
    }
  }

  private void start(ServerLimits limits) throws Exception {
    server =
        GuardedServer.start(
            "test-http",
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            limits,
            new Ok());
  }

  @AfterEach
  void stop() throws Exception {
    for (SlowClient client : clients) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private SlowClient slow(InetAddress from, String partial) throws Exception {
    SlowClient client = SlowClient.connect(from, server.address().getPort(), partial);
    clients.add(client);
    return client;
  }

  private int get() throws Exception {
    return http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.address().getPort() + "/ok"))
                .timeout(Duration.ofSeconds(2))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  @Test
  void aClientTricklingItsHeadersIsCutOffAtTheHeaderDeadline() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(15),
        () -> {
          // An idle timeout alone never fires here: a byte arrives every 200 ms.
          start(
              new ServerLimits(
                  Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofSeconds(5), 16, 16, 2));
          SlowClient trickler = slow(InetAddress.getLoopbackAddress(), "GET /ok HTTP/1.1\r\n");
          long started = System.nanoTime();
          boolean open = true;
          while (open && System.nanoTime() - started < 8_000_000_000L) {
            Thread.sleep(200);
            open = trickler.send("X") && !trickler.closedByServerWithin(Duration.ofMillis(1));
          }
          long took = (System.nanoTime() - started) / 1_000_000;
          assertFalse(open, "the trickling client was never cut off");
          assertTrue(
              took >= 800 && took < 3000,
              "cut off after " + took + " ms, header deadline is 1000 ms");
          assertEquals(200, get());
        });
  }

  @Test
  void aStalledClientIsCutOffAtTheHeaderDeadline() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () -> {
          start(
              new ServerLimits(
                  Duration.ofSeconds(1),
                  Duration.ofSeconds(10),
                  Duration.ofSeconds(30),
                  16,
                  16,
                  2));
          SlowClient stalled = slow(InetAddress.getLoopbackAddress(), HALF_REQUEST);
          assertFalse(
              stalled.closedByServerWithin(Duration.ofMillis(500)), "closed before the deadline");
          assertTrue(
              stalled.closedByServerWithin(Duration.ofSeconds(3)),
              "still open well after the header deadline");
        });
  }

  @Test
  void connectionsBeyondTheCapAreClosedAndTheServerAnswersOnceSlotsFree() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(15),
        () -> {
          start(
              new ServerLimits(
                  Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30), 4, 4, 2));
          for (int i = 0; i < 4; i++) {
            assertFalse(
                slow(InetAddress.getLoopbackAddress(), HALF_REQUEST)
                    .closedByServerWithin(Duration.ofMillis(100)));
          }
          SlowClient beyond = slow(InetAddress.getLoopbackAddress(), HALF_REQUEST);
          assertTrue(
              beyond.closedByServerWithin(Duration.ofSeconds(2)),
              "a fifth connection was kept over a cap of 4");

          for (SlowClient client : clients) {
            client.close();
          }
          clients.clear();
          long deadline = System.nanoTime() + 5_000_000_000L;
          while (server.openConnections() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
          }
          assertEquals(200, get());
          assertEquals(200, get());
        });
  }

  @Test
  void oneClientFillingItsShareLeavesRoomForAnother() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(15),
        () -> {
          start(
              new ServerLimits(
                  Duration.ofSeconds(30),
                  Duration.ofSeconds(30),
                  Duration.ofSeconds(30),
                  16,
                  3,
                  2));
          InetAddress attacker = InetAddress.getByName("127.0.0.2");
          for (int i = 0; i < 3; i++) {
            assertFalse(
                slow(attacker, HALF_REQUEST).closedByServerWithin(Duration.ofMillis(100)),
                "within its share");
          }
          assertTrue(
              slow(attacker, HALF_REQUEST).closedByServerWithin(Duration.ofSeconds(2)),
              "a fourth connection from one client was kept over its share of 3");
          long started = System.nanoTime();
          assertEquals(200, get());
          assertTrue(
              System.nanoTime() - started < 1_000_000_000L,
              "another client waited behind the full share");
        });
  }
}
