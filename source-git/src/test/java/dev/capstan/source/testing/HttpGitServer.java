package dev.capstan.source.testing;

import dev.capstan.testing.TestPki;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jgit.http.server.GitServlet;

/**
 * Git smart HTTP on loopback: JGit's GitServlet in an embedded Jetty, serving the repositories
 * under a base directory at {@code http://127.0.0.1:PORT/git/NAME}, optionally behind basic or
 * bearer authentication. {@code /moved/NAME} answers with a redirect to {@code /git/NAME} on the
 * same server. Every {@code Authorization} header received is recorded, and so is every {@code
 * Proxy-Authorization} header (which a proxy must never pass on). With {@link #tls} it serves https
 * with the given key store's certificate, and with {@link #mutualTls} also asks for a client
 * certificate.
 */
public final class HttpGitServer implements AutoCloseable {

  private static final String CLIENT_CERTIFICATES = "jakarta.servlet.request.X509Certificate";

  private final Server server;
  private final AtomicInteger requests = new AtomicInteger();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<String> proxyAuthorizations = new CopyOnWriteArrayList<>();
  private final List<String> clientCertificates = new CopyOnWriteArrayList<>();
  private final boolean tls;

  private HttpGitServer(Server server, boolean tls) {
    this.server = server;
    this.tls = tls;
  }

  public static HttpGitServer anonymous(Path base) throws Exception {
    return start(base, null);
  }

  /** Anonymous Git over https with {@code certificate}. */
  public static HttpGitServer tls(Path base, TestCertificate certificate) throws Exception {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStorePath(certificate.keyStore().toString());
    ssl.setKeyStorePassword(certificate.password());
    ssl.setKeyStoreType("PKCS12");
    return start(base, null, ssl);
  }

  /**
   * Git over https with {@code certificate} that serves only clients presenting a certificate the
   * authorities in {@code trusted} signed: the TLS handshake fails without one.
   */
  public static HttpGitServer mutualTls(Path base, TestPki.Issued certificate, KeyStore trusted)
      throws Exception {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStore(certificate.keyStore());
    ssl.setKeyStorePassword(TestPki.PASSWORD);
    ssl.setTrustStore(trusted);
    ssl.setNeedClientAuth(true);
    return start(base, null, ssl);
  }

  public static HttpGitServer basicAuth(Path base, String user, String password) throws Exception {
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return start(base, expected);
  }

  public static HttpGitServer bearer(Path base, String token) throws Exception {
    return start(base, "Bearer " + token);
  }

  private static HttpGitServer start(Path base, String expectedAuthorization) throws Exception {
    return start(base, expectedAuthorization, null);
  }

  private static HttpGitServer start(
      Path base, String expectedAuthorization, SslContextFactory.Server ssl) throws Exception {
    Server server = new Server();
    ServerConnector connector;
    if (ssl == null) {
      connector = new ServerConnector(server);
    } else {
      // Makes the client's certificate a request attribute; loopback has no host name to check.
      HttpConfiguration https = new HttpConfiguration();
      SecureRequestCustomizer secure = new SecureRequestCustomizer();
      secure.setSniHostCheck(false);
      https.addCustomizer(secure);
      connector = new ServerConnector(server, ssl, new HttpConnectionFactory(https));
    }
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    HttpGitServer result = new HttpGitServer(server, ssl != null);

    Repositories repositories = new Repositories(base);
    GitServlet git = new GitServlet();
    git.setRepositoryResolver((HttpServletRequest req, String name) -> repositories.open(name));
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(new ServletHolder(git), "/git/*");
    Filter auth =
        (request, response, chain) -> {
          result.requests.incrementAndGet();
          HttpServletRequest req = (HttpServletRequest) request;
          if (req.getHeader("Proxy-Authorization") != null) {
            result.proxyAuthorizations.add(req.getHeader("Proxy-Authorization"));
          }
          if (req.getHeader("Authorization") != null) {
            result.authorizations.add(req.getHeader("Authorization"));
          }
          if (req.getAttribute(CLIENT_CERTIFICATES) instanceof X509Certificate[] presented
              && presented.length > 0) {
            result.clientCertificates.add(presented[0].getSubjectX500Principal().getName());
          }
          if (req.getRequestURI().startsWith("/moved/")) {
            String query = req.getQueryString() == null ? "" : "?" + req.getQueryString();
            HttpServletResponse res = (HttpServletResponse) response;
            res.setStatus(301);
            res.setHeader(
                "Location", "/git/" + req.getRequestURI().substring("/moved/".length()) + query);
            return;
          }
          if (expectedAuthorization != null
              && !expectedAuthorization.equals(req.getHeader("Authorization"))) {
            HttpServletResponse res = (HttpServletResponse) response;
            res.setHeader("WWW-Authenticate", "Basic realm=\"git\"");
            res.sendError(401);
            return;
          }
          chain.doFilter(request, response);
        };
    context.addFilter(new FilterHolder(auth), "/*", EnumSet.of(DispatcherType.REQUEST));
    server.setHandler(context);
    server.start();
    return result;
  }

  public int port() {
    return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
  }

  public String url(String repo) {
    return (tls ? "https" : "http") + "://127.0.0.1:" + port() + "/git/" + repo;
  }

  /** The same repository behind a redirect to this server's own origin. */
  public String movedUrl(String repo) {
    return "http://127.0.0.1:" + port() + "/moved/" + repo;
  }

  /** The values of every {@code Authorization} header received so far. */
  public List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  /** The values of every {@code Proxy-Authorization} header received so far. */
  public List<String> proxyAuthorizations() {
    return List.copyOf(proxyAuthorizations);
  }

  /** The subject of the client certificate of every request that came with one, so far. */
  public List<String> clientCertificates() {
    return List.copyOf(clientCertificates);
  }

  /** HTTP requests received so far. */
  public int requests() {
    return requests.get();
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
