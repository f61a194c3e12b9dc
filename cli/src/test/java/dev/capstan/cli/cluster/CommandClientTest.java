package dev.capstan.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CommandClientTest {

  @Test
  void closingWaitsUntilTheEventLoopsThatCarriedRequestsHaveStopped() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread answering = new Thread(() -> answerOnce(server), "answer-once");
      answering.setDaemon(true);
      answering.start();
      String url = "http://127.0.0.1:" + server.getLocalPort();
      Config config = new ConfigBuilder().withMasterUrl(url).build();

      CommandClient opened = CommandClient.open(config);
      HttpClient http = opened.client().getHttpClient();
      HttpResponse<String> answer =
          http.sendAsync(http.newHttpRequestBuilder().uri(url + "/version").build(), String.class)
              .join();
      assertEquals(200, answer.code());
      assertFalse(opened.stopped(), "the request ran on the client's own event loops");

      opened.close();
      assertTrue(opened.stopped(), "close returns only once the event loops have stopped");
    }
  }

  /** One HTTP/1.1 exchange with a kept-alive connection, as an API server answers. */
  private static void answerOnce(ServerSocket server) {
    try (Socket socket = server.accept()) {
      InputStream in = socket.getInputStream();
      StringBuilder head = new StringBuilder();
      while (!head.toString().endsWith("\r\n\r\n")) {
        int c = in.read();
        if (c < 0) {
          return;
        }
        head.append((char) c);
      }
      byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      // keep the connection open until the client closes it, so closing has a socket to shut
      while (in.read() >= 0) {
        // discard
      }
    } catch (IOException e) {
      // the client went away
    }
  }
}
