package dev.capstan.cli.objects;

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
 * {@code capstan tree ks|hr NAME}: what a Kustomization or a HelmRelease depends on and the objects
 * it applied, with their live state.
 */
@Command(
    name = "tree",
    mixinStandardHelpOptions = true,
    description = {
      "Show a Kustomization's or a HelmRelease's inventory as a tree grouped by namespace, with"
          + " each object's live health.",
      "Kustomizations in the inventory show their own inventories beneath them.",
      "Its source (GitRepository, OCIRepository, Bucket or ExternalArtifact; a HelmRelease's"
          + " chart) comes first with its Ready status and revision, then what it depends on"
          + " (dependsOn), each with its live state, then its last reconciles or releases"
          + " (status.history).",
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
    if (target.kind != CapstanKind.HELM_RELEASE) {
      target.requireKind(
          CapstanKind.KUSTOMIZATION, "only Kustomizations and HelmReleases have an inventory");
    }
    return CommandRunner.run(spec, cluster, this::tree);
  }

  private int tree(KubernetesClient client, PrintWriter out, PrintWriter err) {
    CapstanResources resources = new CapstanResources(client);
    String namespace = target.namespace(client);
    TreeRoot root =
        target.kind == CapstanKind.HELM_RELEASE
            ? TreeRoot.of(resources.get(CapstanKind.HELM_RELEASE, namespace, target.name))
            : TreeRoot.of(resources.get(CapstanKind.KUSTOMIZATION, namespace, target.name));
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
