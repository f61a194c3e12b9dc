package dev.capstan.engine.cli;

import dev.capstan.applier.cli.ClusterErrors;
import dev.capstan.applier.cli.ClusterOptions;
import dev.capstan.applier.cli.KubeconfigProblem;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.net.URL;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs the body of a cluster command with a client, and turns every failure into one line on stderr
 * and an exit status: the user sees what went wrong, never a stack trace.
 */
final class CommandRunner {

  /** The body of a command: what it does with the cluster, returning its exit status. */
  @FunctionalInterface
  interface ClusterAction {
    int run(KubernetesClient client, PrintWriter out, PrintWriter err);
  }

  private CommandRunner() {}

  static int run(CommandSpec spec, ClusterOptions cluster, ClusterAction action) {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    URL server = null;
    try (KubernetesClient client = cluster.open()) {
      server = client.getMasterUrl();
      return action.run(client, out, err);
    } catch (CliException e) {
      return fail(err, e.getMessage(), e.exitCode());
    } catch (KubeconfigProblem e) {
      return fail(err, e.getMessage(), CliException.FAILED);
    } catch (KubernetesClientException e) {
      return fail(err, ClusterErrors.describe(e, server), CliException.FAILED);
    } catch (RuntimeException e) {
      return fail(err, "unexpected failure: " + e, CliException.FAILED);
    } finally {
      out.flush();
    }
  }

  private static int fail(PrintWriter err, String message, int exitCode) {
    err.println("error: " + message);
    err.flush();
    return exitCode;
  }
}
