package dev.capstan.source.git.transport;

import dev.capstan.source.core.proxy.ProxySecret;
import java.io.IOException;
import java.net.Authenticator;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.HttpConnectionFactory;

/**
 * The HTTP connections of one fetch through an http:// proxy that asks for credentials ({@code
 * username} and {@code password} of {@code spec.proxySecretRef}): the JDK's connections, as JGit's
 * own, each with the {@link Authenticator} of this proxy and these credentials (see {@link
 * ProxyAuthenticators}) set on it alone. That authenticator answers only the proxy's challenge (a
 * 407, on a plain http request or on the {@code CONNECT} of an https tunnel), never a server's, and
 * only for this proxy's host and port; the process-wide default authenticator is never set, so one
 * proxy's credentials never serve another's fetch. The JDK keeps the answer, and kept-alive
 * connections and tunnels, per authenticator: fetches with the same proxy and the same credentials
 * share them, no other fetch does.
 */
public final class ProxyCredentialConnections implements HttpConnectionFactory {

  /** The JDK's list of schemes it never uses to authenticate a CONNECT; "Basic" unless set. */
  public static final String TUNNELING_DISABLED_SCHEMES = "jdk.http.auth.tunneling.disabledSchemes";

  /**
   * The JDK's HTTP connections log every request's headers, Proxy-Authorization included, when this
   * logger is at FINE or finer; it is held here so that the level set on it stays.
   */
  private static final Logger JDK_HTTP_LOG =
      Logger.getLogger("sun.net.www.protocol.http.HttpURLConnection");

  private final Proxy proxy;
  private final Authenticator authenticator;
  private final AtomicBoolean refused = new AtomicBoolean();

  ProxyCredentialConnections(ProxySecret settings, Authenticator authenticator) {
    this.proxy = settings.proxy();
    // Whatever the logging configuration, connections with proxy credentials log no headers.
    Level level = JDK_HTTP_LOG.getLevel();
    if (level == null || level.intValue() < Level.INFO.intValue()) {
      JDK_HTTP_LOG.setLevel(Level.INFO);
    }
    this.authenticator = authenticator;
  }

  @Override
  public HttpConnection create(URL url) throws IOException {
    return create(url, null);
  }

  /** The proxy argument is ignored: every request goes through this fetch's proxy. */
  @Override
  public HttpConnection create(URL url, Proxy ignored) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) url.openConnection(proxy);
    connection.setAuthenticator(authenticator);
    return new JdkConnection(connection) {
      @Override
      public int getResponseCode() throws IOException {
        int code = super.getResponseCode();
        if (code == HttpURLConnection.HTTP_PROXY_AUTH) {
          refused.set(true);
        }
        return code;
      }
    };
  }

  /**
   * Whether this JVM lets proxy credentials open https tunnels: the JDK reads the property once,
   * when its HTTP classes initialise, and without it never answers a CONNECT's challenge with
   * Basic. {@code GitSource.allowBasicProxyCredentialsForTunnels} sets it.
   */
  static boolean basicAllowedForTunnels() {
    String disabled = System.getProperty(TUNNELING_DISABLED_SCHEMES);
    return disabled != null
        && Arrays.stream(disabled.split(",")).noneMatch(s -> s.strip().equalsIgnoreCase("basic"));
  }

  /** Whether the proxy refused this fetch's credentials (407). */
  boolean credentialsRefused() {
    return refused.get();
  }
}
