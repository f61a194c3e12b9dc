package dev.capstan.engine.cli;

import dev.capstan.applier.cli.ClusterOptions;
import dev.capstan.engine.ops.server.ListenAddress;
import dev.capstan.engine.ui.UiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.awt.Desktop;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code capstan ui}: serves the web view on a local address until interrupted. */
@Command(
    name = "ui",
    mixinStandardHelpOptions = true,
    description = {
      "Serve a web view of Kustomizations, GitRepositories and OCIRepositories: status, dependency"
          + " graph, inventory,"
          + " drift, and reconcile/suspend/resume, all with your own kubeconfig credentials.",
      "Exit status: 0 stopped, 1 cannot start, 2 bad input."
    })
public final class UiCommand implements Callable<Integer> {

  @Option(
      names = "--addr",
      defaultValue = "127.0.0.1:9595",
      paramLabel = "HOST:PORT",
      description =
          "Address to listen on. Default: ${DEFAULT-VALUE}. Only loopback without --allow-remote.")
  String addr;

  @Option(
      names = "--allow-remote",
      description =
          "Allow a non-loopback --addr: anyone who can reach it acts with your credentials.")
  boolean allowRemote;

  @Option(names = "--open", description = "Open the view in the default browser.")
  boolean open;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      split = ",",
      description =
          "Watch only these namespaces (repeat or separate with commas); default: all, which needs"
              + " the right to list cluster-wide.")
  List<String> namespaces = new ArrayList<>();

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return CommandRunner.run(spec, cluster, this::serve);
  }

  private int serve(KubernetesClient client, PrintWriter out, PrintWriter err) {
    InetSocketAddress address = address();
    if (!address.getAddress().isLoopbackAddress()) {
      if (!allowRemote) {
        throw new CliException(
            "--addr "
                + addr
                + " is not a loopback address: the view acts with your"
                + " credentials; pass --allow-remote to serve it there anyway",
            CliException.BAD_INPUT);
      }
      err.println(
          "warning: serving on "
              + addr
              + ": anyone who can reach it can read and act on the"
              + " cluster with your credentials");
      err.flush();
    }
    try (UiServer server =
        UiServer.start(client, namespaces, address, allowRemote, Clock.systemUTC())) {
      String url =
          "http://" + hostForUrl(server.address()) + ":" + server.address().getPort() + "/";
      out.println("serving the view on " + url + " (Ctrl-C to stop)");
      out.flush();
      if (open) {
        browse(url, err);
      }
      new CountDownLatch(1).await();
      return 0;
    } catch (IOException e) {
      throw new CliException(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /** The address to bind: loopback when no host is given (":9595"). */
  private InetSocketAddress address() {
    ListenAddress parsed;
    try {
      parsed = ListenAddress.parse(addr);
    } catch (IllegalArgumentException e) {
      throw new CliException("--addr: " + e.getMessage(), CliException.BAD_INPUT);
    }
    if (parsed.host().isEmpty()) {
      return new InetSocketAddress(InetAddress.getLoopbackAddress(), parsed.port());
    }
    InetSocketAddress socket = parsed.socketAddress();
    if (socket.isUnresolved()) {
      throw new CliException(
          "--addr: cannot resolve host " + parsed.host(), CliException.BAD_INPUT);
    }
    return socket;
  }

  private static String hostForUrl(InetSocketAddress address) {
    InetAddress ip = address.getAddress();
    if (ip == null || ip.isAnyLocalAddress()) {
      return "127.0.0.1";
    }
    String text = ip.getHostAddress();
    return text.contains(":") ? "[" + text + "]" : text;
  }

  private static void browse(String url, PrintWriter err) {
    try {
      if (Desktop.isDesktopSupported() && Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) {
        Desktop.getDesktop().browse(URI.create(url));
        return;
      }
      new ProcessBuilder("xdg-open", url).inheritIO().start();
    } catch (IOException | UnsupportedOperationException e) {
      err.println(
          "warning: cannot open a browser (" + e.getMessage() + "): open " + url + " yourself");
      err.flush();
    }
  }
}
