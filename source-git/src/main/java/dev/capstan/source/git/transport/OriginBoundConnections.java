package dev.capstan.source.git.transport;

import java.io.IOException;
import java.net.Proxy;
import java.net.URL;
import java.util.Locale;
import javax.net.ssl.SSLSocketFactory;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.HttpConnectionFactory;

/**
 * The HTTP connections of one fetch: requests to the remote's own origin (scheme, host and port)
 * are left as they are; requests that a redirect sends to another origin go without an {@code
 * Authorization} header, whichever way JGit would add one (the bearer token among the extra
 * headers, pre-emptive or challenged basic auth, credentials from the URL). With {@link
 * TlsSettings}, https connections to the remote's origin present the client certificate, those to
 * another origin only trust the Secret's authorities.
 */
final class OriginBoundConnections implements HttpConnectionFactory {

  private final HttpConnectionFactory delegate;
  private final String origin;
  private final Runnable leftOrigin;
  private final Proxy proxy;
  private final TlsSettings tls;

  /**
   * @param delegate opens the connections; one of {@link JdkConnection}s when {@code tls} is set
   * @param leftOrigin told each time a request goes to another origin
   * @param proxy every connection goes through it ({@code spec.proxySecretRef}), or null for the
   *     proxy JGit chooses
   * @param tls the Secret's TLS settings, or null for the JVM's defaults
   */
  OriginBoundConnections(
      HttpConnectionFactory delegate,
      URIish remote,
      Runnable leftOrigin,
      Proxy proxy,
      TlsSettings tls) {
    this.delegate = delegate;
    this.origin = origin(remote.getScheme(), remote.getHost(), remote.getPort());
    this.leftOrigin = leftOrigin;
    this.proxy = proxy;
    this.tls = tls;
  }

  OriginBoundConnections(
      HttpConnectionFactory delegate, URIish remote, Runnable leftOrigin, Proxy proxy) {
    this(delegate, remote, leftOrigin, proxy, null);
  }

  OriginBoundConnections(HttpConnectionFactory delegate, URIish remote, Runnable leftOrigin) {
    this(delegate, remote, leftOrigin, null, null);
  }

  @Override
  public HttpConnection create(URL url) throws IOException {
    return create(url, null);
  }

  @Override
  public HttpConnection create(URL url, Proxy chosen) throws IOException {
    Proxy proxy = this.proxy != null ? this.proxy : chosen;
    String protocol = url.getProtocol().toLowerCase(Locale.ROOT);
    if (!protocol.equals("http") && !protocol.equals("https")) {
      throw new IOException(
          "the remote redirected to a " + protocol + " URL; only http and https are followed");
    }
    HttpConnection connection = proxy == null ? delegate.create(url) : delegate.create(url, proxy);
    boolean home = origin.equals(origin(protocol, url.getHost(), url.getPort()));
    if (tls != null) {
      useTls(connection, home ? tls.forRemote() : tls.forOtherOrigins());
    }
    if (home) {
      return connection;
    }
    leftOrigin.run();
    return WithoutCredentials.around(connection);
  }

  private static void useTls(HttpConnection connection, SSLSocketFactory factory) {
    if (factory == null) {
      return;
    }
    if (!(connection instanceof JdkConnection jdk)) {
      throw new IllegalStateException(
          "TLS settings need JDK connections, not " + connection.getClass().getName());
    }
    jdk.useTls(factory);
  }

  static String origin(String scheme, String host, int port) {
    String s = scheme == null ? "" : scheme.toLowerCase(Locale.ROOT);
    int p = port > 0 ? port : s.equals("https") ? 443 : s.equals("http") ? 80 : -1;
    return s + "://" + (host == null ? "" : host.toLowerCase(Locale.ROOT)) + ":" + p;
  }
}
