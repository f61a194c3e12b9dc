package dev.capstan.source.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.command.CommandFactory;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.ReceivePack;
import org.eclipse.jgit.transport.UploadPack;

/**
 * Git over SSH on loopback: an Apache MINA sshd server whose only commands are {@code
 * git-upload-pack} and {@code git-receive-pack} (a push), run by JGit's UploadPack and ReceivePack.
 * Public-key authentication only, for the one authorized key.
 */
public final class SshGitServer implements AutoCloseable {

  private final SshServer server;
  private final KeyPair hostKey;

  private SshGitServer(SshServer server, KeyPair hostKey) {
    this.server = server;
    this.hostKey = hostKey;
  }

  public static KeyPair newKeyPair() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  public static SshGitServer start(Path base, PublicKey authorized) throws Exception {
    return start(base, authorized, 0);
  }

  /** Starts on {@code port} (0: any free port). */
  public static SshGitServer start(Path base, PublicKey authorized, int port) throws Exception {
    Repositories repositories = new Repositories(base);
    KeyPair hostKey = newKeyPair();
    SshServer server = SshServer.setUpDefaultServer();
    server.setHost("127.0.0.1");
    server.setPort(port);
    server.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
    server.setPublickeyAuthenticator(
        (user, key, session) -> "git".equals(user) && KeyUtils.compareKeys(key, authorized));
    server.setPasswordAuthenticator(null);
    server.setKeyboardInteractiveAuthenticator(null);
    server.setCommandFactory(uploadPack(repositories));
    server.start();
    return new SshGitServer(server, hostKey);
  }

  public int port() {
    return server.getPort();
  }

  public String url(String repo) {
    return "ssh://git@127.0.0.1:" + port() + "/" + repo;
  }

  /** A known_hosts line for this server's host key. */
  public String knownHostsLine() {
    String host = port() == 22 ? "127.0.0.1" : "[127.0.0.1]:" + port();
    return host + " " + PublicKeyEntry.toString(hostKey.getPublic()) + "\n";
  }

  @Override
  public void close() throws IOException {
    server.stop(true);
  }

  private static CommandFactory uploadPack(Repositories repositories) {
    return (ChannelSession channel, String command) -> {
      List<String> words = CommandFactory.split(command);
      if (words.size() != 2
          || !List.of("git-upload-pack", "git-receive-pack").contains(words.get(0))) {
        throw new IOException("unsupported command: " + command);
      }
      return new UploadPackCommand(
          repositories, words.get(1), "git-receive-pack".equals(words.get(0)));
    };
  }

  /** Runs one upload-pack session on its own thread. */
  private static final class UploadPackCommand implements Command {
    private final Repositories repositories;
    private final String path;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private Thread thread;

    private final boolean receive;

    UploadPackCommand(Repositories repositories, String path, boolean receive) {
      this.repositories = repositories;
      this.path = path;
      this.receive = receive;
    }

    @Override
    public void setInputStream(InputStream in) {
      this.in = in;
    }

    @Override
    public void setOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {
      this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback callback) {
      this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) {
      thread = new Thread(this::serve, "upload-pack");
      thread.setDaemon(true);
      thread.start();
    }

    private void serve() {
      try (Repository repo = repositories.open(path)) {
        if (receive) {
          new ReceivePack(repo).receive(in, out, err);
        } else {
          new UploadPack(repo).upload(in, out, err);
        }
        out.flush();
        exit.onExit(0);
      } catch (Exception e) {
        exit.onExit(1, String.valueOf(e.getMessage()));
      }
    }

    @Override
    public void destroy(ChannelSession channel) {
      if (thread != null) {
        thread.interrupt();
      }
    }
  }
}
