package dev.capstan.source.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP server on loopback that answers every request with a 301 to the same path and query under
 * another base URL (another origin), recording the {@code Authorization} headers it gets.
 */
public final class RedirectingServer implements AutoCloseable {

  private final HttpServer server;
  private final List<String> authorizations = new CopyOnWriteArrayList<>();

  private RedirectingServer(HttpServer server) {
    this.server = server;
  }

  /**
   * @param target e.g. {@code http://127.0.0.1:PORT}, with no trailing slash
   */
  public static RedirectingServer to(String target) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    RedirectingServer result = new RedirectingServer(server);
    server.createContext(
        "/",
        exchange -> {
          String auth = exchange.getRequestHeaders().getFirst("Authorization");
          if (auth != null) {
            result.authorizations.add(auth);
          }
          String query = exchange.getRequestURI().getRawQuery();
          exchange
              .getResponseHeaders()
              .set(
                  "Location",
                  target
                      + exchange.getRequestURI().getRawPath()
                      + (query == null ? "" : "?" + query));
          exchange.sendResponseHeaders(301, -1);
          exchange.close();
        });
    server.start();
    return result;
  }

  /** The URL of {@code path} on this server, e.g. {@code /git/app}. */
  public String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
