package dev.capstan.source.oci.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A plain HTTP/1.1 server on 127.0.0.1 that answers some paths at once and sends the body of others
 * one byte at a time: the hostile server whose pull must end at its deadline, whatever the request
 * timeout. A TLS hello gets a 400 at once, as a Go server answers it, so that a client probing for
 * TLS learns quickly that the port speaks plain http. One request per connection.
 */
public final class SlowHttpServer implements AutoCloseable {
  private static final int TLS_HANDSHAKE = 0x16;

  private final ServerSocket socket;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private interface Answer {
    void send(OutputStream out) throws IOException, InterruptedException;
  }

  private SlowHttpServer() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  public static SlowHttpServer start() throws IOException {
    return new SlowHttpServer();
  }

  /** {@code host:port}. */
  public String host() {
    return "127.0.0.1:" + socket.getLocalPort();
  }

  public String url(String path) {
    return "http://" + host() + path;
  }

  /** The request lines received so far. */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  /** Answers {@code METHOD path} with {@code body} at once (no body for HEAD). */
  public SlowHttpServer answer(
      String method, String path, Map<String, String> headers, byte[] body) {
    answers.put(
        method + " " + path,
        out -> {
          StringBuilder head = new StringBuilder("HTTP/1.1 200 OK\r\nConnection: close\r\n");
          headers.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
          head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
          out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
          if (!method.equals("HEAD")) {
            out.write(body);
          }
          out.flush();
        });
    return this;
  }

  /**
   * Answers {@code GET path} with headers declaring {@code length} bytes, then sends one byte every
   * {@code interval}.
   */
  public SlowHttpServer trickle(String path, long length, Duration interval) {
    answers.put(
        "GET " + path,
        out -> {
          out.write(
              ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/octet-stream\r\n"
                      + "Content-Length: "
                      + length
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
          out.flush();
          for (long sent = 0; sent < length; sent++) {
            Thread.sleep(interval.toMillis());
            out.write('x');
            out.flush();
          }
        });
    return this;
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        threads.execute(() -> serve(connection));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket connection) {
    try (connection;
        InputStream in = connection.getInputStream();
        OutputStream out = connection.getOutputStream()) {
      int first = in.read();
      if (first == TLS_HANDSHAKE) {
        out.write("HTTP/1.0 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return;
      }
      String line = head(first, in);
      requests.add(line);
      String[] request = line.split(" ");
      Answer answer = request.length < 2 ? null : answers.get(request[0] + " " + request[1]);
      if (answer == null) {
        out.write(
            "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        return;
      }
      answer.send(out);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away: what a pull ended at its deadline does
    }
  }

  /** The request line; the rest of the request's head is read and dropped. */
  private static String head(int first, InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int b = first;
    while (b >= 0 && bytes.size() < 65536) {
      bytes.write(b);
      String text = bytes.toString(StandardCharsets.US_ASCII);
      if (text.endsWith("\r\n\r\n")) {
        return text.substring(0, text.indexOf("\r\n"));
      }
      b = in.read();
    }
    throw new IOException("no complete request head");
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // nothing more is accepted either way
    }
    threads.shutdownNow();
  }
}
