package dev.capstan.engine.testing;

import dev.capstan.testing.TestPki;
import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyStore;
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
 * can ask for a client certificate.
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

  private static GitHttpServer serve(
      Path dir, Server server, ServerConnector connector, String scheme) {
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
    server.setHandler(context);
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("the test Git server did not start", e);
    }
    return new GitHttpServer(server, scheme);
  }

  public String url() {
    return scheme
        + "://127.0.0.1:"
        + ((ServerConnector) server.getConnectors()[0]).getLocalPort()
        + "/git/repo";
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
