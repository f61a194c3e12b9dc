package dev.capstan.engine.cli;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.applier.cli.ClusterOptions;
import dev.capstan.applier.cli.DurationConverter;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code capstan resume ks|gitrepo NAME}: clears {@code spec.suspend} and, in the same patch, asks
 * for a reconcile, then waits for its outcome.
 */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description = {
      "Resume a suspended Kustomization (or GitRepository) and wait for the reconcile it triggers.",
      "Exit status: 0 resumed and Ready, 1 not Ready, timed out or not found, 2 bad input."
    })
public final class ResumeCommand implements Callable<Integer> {

  @Mixin ObjectArguments target = new ObjectArguments();

  @Option(names = "--no-wait", description = "Return once resumed, without waiting for the reconcile.")
  boolean noWait;

  @Option(names = "--timeout", defaultValue = "5m", paramLabel = "D", converter = DurationConverter.class,
      description = "How long to wait for the reconcile (e.g. 90s, 5m). Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  private final Clock clock;

  public ResumeCommand() {
    this(Clock.systemUTC());
  }

  ResumeCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    return CommandRunner.run(spec, cluster, this::resume);
  }

  private int resume(KubernetesClient client, PrintWriter out, PrintWriter err) {
    String ns = target.namespace(client);
    CapstanKind<?> kind = target.kind;
    String name = target.name;
    CapstanResources resources = new CapstanResources(client);
    ReconcileWaiter requester = new ReconcileWaiter(resources, clock, out);
    ReconcileRequest request = requester.newRequest();
    Map<String, Object> patch = request.mergePatch();
    patch.put("spec", Map.of("suspend", false));
    if (noWait) {
      resources.mergePatch(kind, ns, name, patch);
      out.println(kind.kind() + " " + name + " resumed");
      return 0;
    }
    ReconcileReport outcome = requester.patchAndWait(kind, ns, name, patch, request, timeout, "resuming");
    return ReconcileCommand.report(outcome, out, err) ? 0 : CliException.FAILED;
  }
}
