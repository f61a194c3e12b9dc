package dev.capstan.cli.objects;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.health.cel.BuiltinLibrary;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code capstan tree ks NAME}: what a Kustomization depends on and the objects it applied, with
 * their live state.
 */
@Command(
    name = "tree",
    mixinStandardHelpOptions = true,
    description = {
      "Show a Kustomization's inventory as a tree grouped by namespace, with each object's live"
          + " health.",
      "Kustomizations in the inventory show their own inventories beneath them.",
      "Its source (GitRepository, OCIRepository or ExternalArtifact) comes first with its Ready"
          + " status and revision, then what it depends on (dependsOn), each with its live state,"
          + " then its last reconciles (status.history).",
      "Exit status: 0 shown, 1 not found or the cluster failed, 2 bad input."
    })
public final class TreeCommand implements Callable<Integer> {

  @Mixin ObjectArguments target = new ObjectArguments();

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  private final Clock clock;

  public TreeCommand() {
    this(Clock.systemUTC());
  }

  TreeCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() {
    target.requireKind(CapstanKind.KUSTOMIZATION, "only Kustomizations have an inventory: use ks");
    return CommandRunner.run(spec, cluster, this::tree);
  }

  private int tree(KubernetesClient client, PrintWriter out, PrintWriter err) {
    Kustomization root =
        new CapstanResources(client)
            .get(CapstanKind.KUSTOMIZATION, target.namespace(client), target.name);
    InventoryTree tree = new InventoryTree(live(client), BuiltinLibrary.load(), clock, err);
    tree.of(root).render().forEach(out::println);
    return 0;
  }

  private static InventoryTree.LiveObjects live(KubernetesClient client) {
    return (apiVersion, kind, namespace, name) -> {
      try {
        var resources = client.genericKubernetesResources(apiVersion, kind);
        GenericKubernetesResource object =
            namespace.isEmpty()
                ? resources.withName(name).get()
                : resources.inNamespace(namespace).withName(name).get();
        return Optional.ofNullable(object);
      } catch (RuntimeException e) {
        // The client's own words for an unserved API do not name it.
        if (!client.supports(apiVersion, kind)) {
          throw new IllegalStateException(
              apiVersion + " " + kind + " is not served by this cluster", e);
        }
        throw e;
      }
    };
  }
}
