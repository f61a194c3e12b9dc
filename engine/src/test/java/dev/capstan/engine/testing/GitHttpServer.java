package dev.capstan.engine.testing;

import java.io.IOException;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.http.server.GitServlet;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.util.FS;

/**
 * One repository on disk served over Git smart HTTP on loopback (JGit's GitServlet in an embedded
 * Jetty), anonymous and read-only: a GitRepository names a remote URL, never a path.
 */
public final class GitHttpServer implements AutoCloseable {
  private final Server server;

  private GitHttpServer(Server server) {
    this.server = server;
  }

  /** Serves the repository in {@code dir} (a work tree or a bare repository) as {@link #url()}. */
  public static GitHttpServer serve(Path dir) {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
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
    return new GitHttpServer(server);
  }

  public String url() {
    return "http://127.0.0.1:"
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
