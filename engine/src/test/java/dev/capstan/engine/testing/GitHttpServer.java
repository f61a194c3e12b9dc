package dev.capstan.engine.testing;

import dev.capstan.testing.TestPki;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.http.server.GitServlet;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.util.FS;

/**
 * One repository on disk served over Git smart HTTP on loopback (JGit's GitServlet in an embedded
 * Jetty), anonymous and read-only: a GitRepository names a remote URL, never a path. Over https, it
 * can ask for a client certificate, or serve as GitHub does to a GitHub App's tokens.
 */
public final class GitHttpServer implements AutoCloseable {
  private final Server server;
  private final String scheme;

  private GitHttpServer(Server server, String scheme) {
    this.server = server;
    this.scheme = scheme;
  }

  /** Serves the repository in {@code dir} (a work tree or a bare repository) as {@link #url()}. */
  public static GitHttpServer serve(Path dir) {
    Server server = new Server();
    return serve(dir, server, new ServerConnector(server), "http");
  }

  /**
   * Serves the repository over https with {@code certificate}, only to clients that present a
   * certificate signed by an authority in {@code trusted} (the TLS handshake fails without one).
   */
  public static GitHttpServer serveMutualTls(
      Path dir, TestPki.Issued certificate, KeyStore trusted) {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStore(certificate.keyStore());
    ssl.setKeyStorePassword(TestPki.PASSWORD);
    ssl.setTrustStore(trusted);
    ssl.setNeedClientAuth(true);
    Server server = new Server();
    return serve(dir, server, new ServerConnector(server, ssl), "https");
  }

  /**
   * Serves the repository over https with {@code certificate} to the tokens {@code app} issues, and
   * {@code app}'s token endpoint under {@link #apiUrl()}, as GitHub serves a GitHub App.
   */
  public static GitHttpServer serveGitHubApp(
      Path dir, TestPki.Issued certificate, GitHubAppEndpoint app) {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStore(certificate.keyStore());
    ssl.setKeyStorePassword(TestPki.PASSWORD);
    Server server = new Server();
    return serve(dir, server, new ServerConnector(server, ssl), "https", app);
  }

  private static GitHttpServer serve(
      Path dir, Server server, ServerConnector connector, String scheme) {
    return serve(dir, server, connector, scheme, null);
  }

  private static GitHttpServer serve(
      Path dir, Server server, ServerConnector connector, String scheme, GitHubAppEndpoint app) {
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    GitServlet git = new GitServlet();
    git.setRepositoryResolver(
        (request, name) -> {
          if (!"repo".equals(name.replaceAll("^/+|/+$", ""))) {
            throw new RepositoryNotFoundException(name);
          }
          try {
            return RepositoryCache.open(
                RepositoryCache.FileKey.lenient(dir.toFile(), FS.DETECTED), true);
          } catch (IOException e) {
            throw new RepositoryNotFoundException(name, e);
          }
        });
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(new ServletHolder(git), "/git/*");
    if (app != null) {
      context.addServlet(new ServletHolder(app.api()), "/api/*");
      context.addFilter(new FilterHolder(app.git()), "/git/*", EnumSet.of(DispatcherType.REQUEST));
    }
    server.setHandler(context);
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("the test Git server did not start", e);
    }
    return new GitHttpServer(server, scheme);
  }

  public String url() {
    return origin() + "/git/repo";
  }

  /** Where a {@link GitHubAppEndpoint}'s API is served: its {@code githubAppBaseURL}. */
  public String apiUrl() {
    return origin() + "/api";
  }

  private String origin() {
    return scheme + "://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort();
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("the test Git server did not stop", e);
    }
  }
}
