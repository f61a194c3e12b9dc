package dev.capstan.cli.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.faults.FaultyProxy.Mode;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy forgets the client connections it reset or answered with a 500 itself, and delivers
 * what was sent into a black hole only for a client still there when it heals.
 */
class FaultyProxyTest {
  private ServerSocket target;
  private FaultyProxy proxy;

  @BeforeEach
  void start() throws IOException {
    target = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    proxy = FaultyProxy.start("127.0.0.1", target.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    target.close();
  }

  @Test
  void aClientAnswered500IsNoLongerHeldOpen() throws Exception {
    proxy.set(Mode.ERROR_500);
    try (Socket client = connect()) {
      client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      String answer = new String(readAll(client.getInputStream()), StandardCharsets.US_ASCII);
      assertTrue(answer.startsWith("HTTP/1.1 500"), answer);
    }
    awaitNoneOpen();
  }

  @Test
  void aRequestOnAConnectionKeptAliveFromBeforeIsAnswered500Too() throws Exception {
    try (Socket client = connect();
        Socket server = target.accept()) {
      client.getOutputStream().write("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      server.getInputStream().read(new byte[1024]);
      byte[] ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes();
      server.getOutputStream().write(ok);
      assertEquals(ok.length, client.getInputStream().readNBytes(ok.length).length);

      proxy.set(Mode.ERROR_500);
      client.getOutputStream().write("GET /b HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      String answer = new String(readAll(client.getInputStream()), StandardCharsets.US_ASCII);
      assertTrue(answer.startsWith("HTTP/1.1 500"), answer);
    }
    awaitNoneOpen();
  }

  @Test
  void aClientResetWhileDownIsNoLongerHeldOpen() throws Exception {
    proxy.set(Mode.DOWN);
    try (Socket client = connect()) {
      try {
        readAll(client.getInputStream());
      } catch (IOException reset) {
        // the reset the proxy sends
      }
    }
    awaitNoneOpen();
  }

  @Test
  void whatAClientStillThereSentIntoABlackHoleIsDeliveredWhenItHeals() throws Exception {
    try (Socket client = connect();
        Socket server = target.accept()) {
      server.setSoTimeout(10_000);
      proxy.set(Mode.BLACK_HOLE);
      client.getOutputStream().write("late".getBytes());
      Thread.sleep(300);
      assertEquals(0, server.getInputStream().available());

      proxy.set(Mode.PASS);
      assertEquals("late", new String(server.getInputStream().readNBytes(4)));
    }
  }

  @Test
  void whatAClientThatWentAwaySentIntoABlackHoleIsNeverDelivered() throws Exception {
    try (Socket server = keptAliveThenBlackHoled()) {
      proxy.set(Mode.PASS);
      try {
        assertEquals(-1, server.getInputStream().read(), "the stale bytes were delivered");
      } catch (IOException reset) {
        // the proxy reset the connection: nothing delivered either
      }
    }
    awaitNoneOpen();
  }

  /** A connection whose client sends into the black hole and then goes away: the server side. */
  private Socket keptAliveThenBlackHoled() throws Exception {
    Socket server;
    try (Socket client = connect()) {
      server = target.accept();
      server.setSoTimeout(10_000);
      proxy.set(Mode.BLACK_HOLE);
      client.getOutputStream().write("stale".getBytes());
      Thread.sleep(300);
    }
    awaitNoneOpen(); // the proxy saw the client gone while the black hole lasts
    return server;
  }

  private Socket connect() throws IOException {
    Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
    client.setSoTimeout(10_000);
    return client;
  }

  private static byte[] readAll(InputStream in) throws IOException {
    return in.readAllBytes();
  }

  private void awaitNoneOpen() throws InterruptedException {
    for (int i = 0; i < 200 && proxy.openConnections() > 0; i++) {
      Thread.sleep(50);
    }
    assertEquals(0, proxy.openConnections());
  }
}
