package dev.capstan.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small forward HTTP proxy on loopback for tests: {@code CONNECT host:port} tunnels (https
 * through a proxy) and absolute-URI requests (plain http through a proxy), one request per
 * connection. It records each request line, so a test can tell that traffic went through it.
 * Started with {@link #requiringBasicAuth}, it answers {@code 407} to any request whose {@code
 * Proxy-Authorization} is not the expected Basic credentials, and records those it refused.
 */
public final class ForwardProxy implements AutoCloseable {

  private final ServerSocket server;
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "forward-proxy");
            t.setDaemon(true);
            return t;
          });
  private final List<String> requestLines = new CopyOnWriteArrayList<>();
  private final List<String> refused = new CopyOnWriteArrayList<>();
  private final String expectedAuthorization;

  private ForwardProxy(ServerSocket server, String expectedAuthorization) {
    this.server = server;
    this.expectedAuthorization = expectedAuthorization;
  }

  public static ForwardProxy start() throws IOException {
    return start(null);
  }

  /** A proxy that admits only requests with Basic credentials {@code user}:{@code password}. */
  public static ForwardProxy requiringBasicAuth(String user, String password) throws IOException {
    return start(
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }

  private static ForwardProxy start(String expectedAuthorization) throws IOException {
    ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    ForwardProxy proxy = new ForwardProxy(socket, expectedAuthorization);
    proxy.threads.execute(proxy::accept);
    return proxy;
  }

  /** {@code http://127.0.0.1:PORT}, as a proxy Secret's {@code address}. */
  public String address() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** The request lines received so far, e.g. {@code GET http://127.0.0.1:1234/x HTTP/1.1}. */
  public List<String> requestLines() {
    return List.copyOf(requestLines);
  }

  /** The request lines answered with 407 (missing or wrong credentials). */
  public List<String> refusedRequestLines() {
    return List.copyOf(refused);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        threads.execute(() -> serve(client));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      List<String> head = readHead(in);
      if (head.isEmpty()) {
        return;
      }
      String requestLine = head.get(0);
      requestLines.add(requestLine);
      if (expectedAuthorization != null
          && !expectedAuthorization.equals(header(head, "proxy-authorization"))) {
        refused.add(requestLine);
        client
            .getOutputStream()
            .write(
                ("HTTP/1.1 407 Proxy Authentication Required\r\n"
                        + "Proxy-Authenticate: Basic realm=\"proxy\"\r\nContent-Length: 0\r\n"
                        + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        return;
      }
      String[] parts = requestLine.split(" ");
      if (parts[0].equals("CONNECT")) {
        String[] hostPort = parts[1].split(":");
        try (Socket upstream = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
          client
              .getOutputStream()
              .write(
                  "HTTP/1.1 200 Connection established\r\n\r\n"
                      .getBytes(StandardCharsets.US_ASCII));
          pipe(client, upstream, in);
        }
        return;
      }
      URI target = URI.create(parts[1]);
      int port = target.getPort() > 0 ? target.getPort() : 80;
      try (Socket upstream = new Socket()) {
        upstream.connect(new InetSocketAddress(target.getHost(), port));
        StringBuilder request =
            new StringBuilder(
                parts[0]
                    + " "
                    + target.getRawPath()
                    + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery())
                    + " "
                    + parts[2]
                    + "\r\n");
        for (String header : head.subList(1, head.size())) {
          String lower = header.toLowerCase(Locale.ROOT);
          if (!lower.startsWith("proxy-") && !lower.startsWith("connection:")) {
            request.append(header).append("\r\n");
          }
        }
        request.append("Connection: close\r\n\r\n");
        upstream.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
        threads.execute(() -> copy(in, upstream));
        forwardResponse(upstream.getInputStream(), client.getOutputStream());
      }
    } catch (IOException | RuntimeException e) {
      // the client or the upstream went away: nothing to answer
    }
  }

  private static String header(List<String> head, String lowerCaseName) {
    for (String line : head.subList(1, head.size())) {
      int colon = line.indexOf(':');
      if (colon > 0
          && line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals(lowerCaseName)) {
        return line.substring(colon + 1).strip();
      }
    }
    return null;
  }

  /**
   * Passes the upstream's response on, saying that the connection closes after it (this proxy
   * serves one request per connection; a client must not send another on it).
   */
  private static void forwardResponse(InputStream upstream, OutputStream client)
      throws IOException {
    List<String> head = readHead(upstream);
    StringBuilder out = new StringBuilder();
    for (String line : head) {
      String lower = line.toLowerCase(Locale.ROOT);
      if (!lower.startsWith("connection:")
          && !lower.startsWith("keep-alive:")
          && !lower.startsWith("proxy-connection:")) {
        out.append(line).append("\r\n");
      }
    }
    out.append("Connection: close\r\n\r\n");
    client.write(out.toString().getBytes(StandardCharsets.ISO_8859_1));
    upstream.transferTo(client);
  }

  /** Copies both ways until the upstream closes; {@code clientIn} may hold buffered bytes. */
  private void pipe(Socket client, Socket upstream, InputStream clientIn) throws IOException {
    threads.execute(() -> copy(clientIn, upstream));
    upstream.getInputStream().transferTo(client.getOutputStream());
  }

  private static void copy(InputStream from, Socket to) {
    try {
      OutputStream out = to.getOutputStream();
      from.transferTo(out);
    } catch (IOException closed) {
      // one side closed
    }
  }

  private static List<String> readHead(InputStream in) throws IOException {
    List<String> lines = new ArrayList<>();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      if (b == '\n') {
        String text = line.toString(StandardCharsets.ISO_8859_1).replaceAll("\r$", "");
        if (text.isEmpty()) {
          return lines;
        }
        lines.add(text);
        line.reset();
      } else {
        line.write(b);
      }
      if (line.size() > 16 << 10 || lines.size() > 200) {
        throw new IOException("request head too large");
      }
    }
    return lines;
  }

  @Override
  public void close() throws IOException {
    server.close();
    threads.shutdownNow();
  }
}
