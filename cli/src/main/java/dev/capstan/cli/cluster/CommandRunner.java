package dev.capstan.cli.cluster;

import dev.capstan.applier.ClusterErrors;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.net.URL;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs the body of a cluster command with a client, and is the command line's one failure policy:
 * every failure becomes one line {@code error: ...} on stderr and an exit status, never a stack
 * trace. A {@link CliException} exits with its own status; a kubeconfig or cluster failure, or a
 * defect, with the command's status for a failed cluster.
 */
public final class CommandRunner {

  /** The body of a command: what it does with the cluster, returning its exit status. */
  @FunctionalInterface
  public interface ClusterAction {
    int run(KubernetesClient client, PrintWriter out, PrintWriter err);
  }

  /** The body of a command that first reads its input, e.g. a directory of manifests. */
  @FunctionalInterface
  public interface InputAction<T> {
    int run(KubernetesClient client, T input);
  }

  private CommandRunner() {}

  /** Opens the client, then runs {@code action}; a cluster failure exits 1. */
  public static int run(CommandSpec spec, ClusterOptions cluster, ClusterAction action) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    URL server = null;
    try (CommandClient opened = cluster.open()) {
      server = opened.client().getMasterUrl();
      return action.run(opened.client(), out, err);
    } catch (RuntimeException e) {
      return fail(err, e, server, CliException.FAILED);
    } finally {
      out.flush();
    }
  }

  /**
   * Reads the input while the cluster connection opens (both take a while), then runs {@code
   * action} with both. Input that cannot be read is a {@link CliException}; a cluster failure exits
   * {@code clusterErrorExit}.
   */
  public static <T> int run(
      CommandSpec spec,
      ClusterOptions cluster,
      int clusterErrorExit,
      Supplier<T> input,
      InputAction<T> action) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ClusterConnection connecting = ClusterConnection.openInBackground(cluster);
    T read;
    try {
      read = input.get();
    } catch (RuntimeException e) {
      int exit = fail(err, e, null, clusterErrorExit);
      connecting.discard();
      return exit;
    }
    CommandClient opened;
    try {
      opened = connecting.await();
    } catch (RuntimeException e) {
      URL server = e instanceof KubernetesClientException k ? ClusterConnection.serverOf(k) : null;
      return fail(err, e, server, clusterErrorExit);
    }
    try (opened) {
      return action.run(opened.client(), read);
    } catch (RuntimeException e) {
      return fail(err, e, opened.client().getMasterUrl(), clusterErrorExit);
    } finally {
      out.flush();
    }
  }

  /** Tells {@code e} in one line, for a command without a cluster; returns its exit status. */
  public static int fail(PrintWriter err, CliException e) {
    return fail(err, e, null, e.exitCode());
  }

  /**
   * Tells {@code e} in one line and returns the exit status: a {@link CliException}'s own, else
   * {@code clusterErrorExit}.
   *
   * @param server the cluster the failure is about, when known
   */
  public static int fail(PrintWriter err, RuntimeException e, URL server, int clusterErrorExit) {
    int exit = e instanceof CliException cli ? cli.exitCode() : clusterErrorExit;
    err.println("error: " + describe(e, server));
    err.flush();
    return exit;
  }

  private static String describe(RuntimeException e, URL server) {
    if (e instanceof CliException || e instanceof KubeconfigProblem) {
      return e.getMessage();
    }
    if (e instanceof KubernetesClientException k) {
      return ClusterErrors.describe(k, server);
    }
    // a defect, not the user's input: still one line, as every other failure
    return "unexpected failure: " + e.toString().lines().findFirst().orElse("");
  }
}
