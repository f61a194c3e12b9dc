package dev.capstan.cli.objects;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code capstan suspend} and {@code capstan resume}: both set {@code spec.suspend} of one
 * Kustomization or a source. Resuming also asks for a reconcile in the same patch, and can wait for
 * its outcome.
 */
abstract class SuspensionCommand implements Callable<Integer> {

  @Mixin ObjectArguments target = new ObjectArguments();

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  private final boolean suspend;
  private final Clock clock;

  SuspensionCommand(boolean suspend, Clock clock) {
    this.suspend = suspend;
    this.clock = clock;
  }

  /** How long to wait for the reconcile that resuming asks for; empty: do not wait. */
  abstract Optional<Duration> waitFor();

  @Override
  public Integer call() {
    return CommandRunner.run(spec, cluster, this::set);
  }

  private int set(KubernetesClient client, PrintWriter out, PrintWriter err) {
    String ns = target.namespace(client);
    CapstanKind<?> kind = target.kind;
    String name = target.name;
    CapstanResources resources = new CapstanResources(client);
    // Read first: a missing object is named, and suspending twice says so.
    if (resources.view(kind, ns, name).suspended() && suspend) {
      out.println(kind.kind() + " " + name + " is already suspended");
      return 0;
    }
    ReconcileWaiter waiter = new ReconcileWaiter(resources, clock, out);
    ReconcileRequest request = waiter.newRequest();
    // Resuming asks for a reconcile in the same patch: the controller need not wait for the
    // interval.
    Map<String, Object> patch = suspend ? new HashMap<>() : request.mergePatch();
    patch.put("spec", Map.of("suspend", suspend));
    Optional<Duration> timeout = waitFor();
    if (timeout.isEmpty()) {
      resources.mergePatch(kind, ns, name, patch);
      out.println(kind.kind() + " " + name + (suspend ? " suspended" : " resumed"));
      return 0;
    }
    ReconcileReport report =
        waiter.patchAndWait(kind, ns, name, patch, request, timeout.get(), "resuming");
    return ReconcileCommand.report(report, out, err) ? 0 : CliException.FAILED;
  }
}
