package dev.capstan.source.testing;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.capstan.testing.TestPki;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An HTTP server on loopback that answers every request with a 301 to the same path and query under
 * another base URL (another origin), recording the {@code Authorization} headers it gets.
 */
public final class RedirectingServer implements AutoCloseable {

  private final HttpServer server;
  private final String scheme;
  private final List<String> authorizations = new CopyOnWriteArrayList<>();

  private RedirectingServer(HttpServer server, String scheme) {
    this.server = server;
    this.scheme = scheme;
  }

  /**
   * @param target e.g. {@code http://127.0.0.1:PORT}, with no trailing slash
   */
  public static RedirectingServer to(String target) throws IOException {
    return start(
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0),
        "http",
        target);
  }

  /** As {@link #to}, over https with {@code certificate} (asking for no client certificate). */
  public static RedirectingServer overTls(String target, TestPki.Issued certificate)
      throws Exception {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(certificate.keyStore(), TestPki.PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    return start(server, "https", target);
  }

  private static RedirectingServer start(HttpServer server, String scheme, String target) {
    RedirectingServer result = new RedirectingServer(server, scheme);
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
    return scheme + "://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
