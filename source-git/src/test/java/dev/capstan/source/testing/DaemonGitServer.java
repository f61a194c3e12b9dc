package dev.capstan.source.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.eclipse.jgit.transport.Daemon;
import org.eclipse.jgit.transport.DaemonClient;

/** The git:// protocol on loopback, served by JGit's daemon. */
public final class DaemonGitServer implements AutoCloseable {

  private final Daemon daemon;

  private DaemonGitServer(Daemon daemon) {
    this.daemon = daemon;
  }

  public static DaemonGitServer start(Path base) throws IOException {
    Repositories repositories = new Repositories(base);
    Daemon daemon = new Daemon(new InetSocketAddress("127.0.0.1", 0));
    daemon.setRepositoryResolver((DaemonClient client, String name) -> repositories.open(name));
    daemon.start();
    return new DaemonGitServer(daemon);
  }

  public String url(String repo) {
    return "git://127.0.0.1:" + daemon.getAddress().getPort() + "/" + repo;
  }

  @Override
  public void close() {
    daemon.stop();
  }
}
