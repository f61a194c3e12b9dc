package dev.capstan.cli.ui;

import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.engine.ops.server.ListenAddress;
import dev.capstan.ui.UiOptions;
import dev.capstan.ui.UiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.awt.Desktop;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
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
      "Open the address it prints: its token, new at each start, lets a browser in (nothing is"
          + " served without it).",
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
          "Allow a non-loopback --addr: whoever can reach it and has the printed address acts"
              + " with your credentials.")
  boolean allowRemote;

  @Option(
      names = "--allow-host",
      paramLabel = "NAME",
      description =
          "Also answer requests whose Host header names NAME (repeatable); loopback names and the"
              + " --addr address are always answered, any other name is refused.")
  List<String> allowedHosts = new ArrayList<>();

  @Option(
      names = "--no-cross-namespace-refs",
      description =
          "Refuse drift of a Kustomization whose sourceRef or dependsOn names another namespace,"
              + " and a reconcile of one whose sourceRef does, as capstan run"
              + " --no-cross-namespace-refs refuses to reconcile it.")
  boolean noCrossNamespaceRefs;

  @Option(
      names = "--open",
      description =
          "Open the view in the default browser (through a file only you can read, so that the"
              + " token is in no command line).")
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
              + ": anyone who can reach it and has the printed address (sent over plain"
              + " HTTP) can read and act on the cluster with your credentials");
      err.flush();
    }
    UiOptions options =
        UiOptions.on(address)
            .withNamespaces(namespaces)
            .withAllowedHosts(allowedHosts)
            .withNoCrossNamespaceRefs(noCrossNamespaceRefs);
    try (UiServer server = UiServer.start(client, options)) {
      // The one place the token is shown: the user needs it to get in.
      String url = server.url().toString();
      out.println("serving the view on " + url + " (Ctrl-C to stop)");
      out.flush();
      Path launch = open ? browse(url, err) : null;
      try {
        new CountDownLatch(1).await();
      } finally {
        if (launch != null) {
          Files.deleteIfExists(launch);
        }
      }
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

  /**
   * Opens the view in the default browser through a {@link LaunchPage}, never with the token in a
   * command line.
   *
   * @return the file, deleted when the view stops; null when none was written
   */
  private static Path browse(String url, PrintWriter err) {
    Path launch = null;
    try {
      launch = LaunchPage.write(url);
      URI target = launch.toUri();
      if (Desktop.isDesktopSupported() && Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) {
        Desktop.getDesktop().browse(target);
      } else {
        new ProcessBuilder("xdg-open", target.toString()).inheritIO().start();
      }
    } catch (IOException | UnsupportedOperationException e) {
      err.println(
          "warning: cannot open a browser (" + e.getMessage() + "): open the address yourself");
      err.flush();
    }
    return launch;
  }
}
