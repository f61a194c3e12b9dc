package dev.capstan.engine.cli;

import dev.capstan.applier.cli.ClusterOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code capstan suspend ks|gitrepo NAME}: sets {@code spec.suspend} so the controller leaves it alone. */
@Command(
    name = "suspend",
    mixinStandardHelpOptions = true,
    description = {
      "Suspend a Kustomization (or GitRepository): the controller stops reconciling it until it is resumed.",
      "Exit status: 0 suspended, 1 not found or the cluster failed, 2 bad input."
    })
public final class SuspendCommand implements Callable<Integer> {

  @Mixin ObjectArguments target = new ObjectArguments();

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return CommandRunner.run(spec, cluster, this::suspend);
  }

  private int suspend(KubernetesClient client, PrintWriter out, PrintWriter err) {
    String ns = target.namespace(client);
    CapstanKind<?> kind = target.kind;
    String name = target.name;
    CapstanResources resources = new CapstanResources(client);
    if (resources.view(kind, ns, name).suspended()) {
      out.println(kind.kind() + " " + name + " is already suspended");
      return 0;
    }
    resources.mergePatch(kind, ns, name, Map.of("spec", Map.of("suspend", true)));
    out.println(kind.kind() + " " + name + " suspended");
    return 0;
  }
}
