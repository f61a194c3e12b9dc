package dev.capstan.cli.apply;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.inventory.ConfigMapInventoryStore;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.options.ConcurrencyOption;
import dev.capstan.cli.options.DurationConverter;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code capstan apply}: the applier used once from a shell. */
@Command(
    name = "apply",
    mixinStandardHelpOptions = true,
    description = {
      "Apply a directory to the cluster with staged server-side apply (field manager capstan).",
      "Exit status: 0 applied, 1 an object failed, 2 bad input."
    })
public final class ApplyCommand implements Callable<Integer> {

  /** Owner named by the labels when no --inventory is given. */
  static final String DEFAULT_OWNER = "capstan-cli";

  @Mixin ManifestOptions files = new ManifestOptions();

  @Option(names = "--wait", description = "Wait until the applied objects are healthy.")
  boolean wait;

  @Option(
      names = "--timeout",
      defaultValue = "5m",
      converter = DurationConverter.class,
      paramLabel = "D",
      description =
          "Time limit for CRDs, deletions and --wait (e.g. 90s, 1.5m, 1h2m). Default:"
              + " ${DEFAULT-VALUE}.")
  Duration timeout;

  @Option(
      names = "--prune",
      description = "Delete objects of the previous inventory that are gone from DIR.")
  boolean prune;

  @Option(
      names = "--inventory",
      paramLabel = "NAME",
      description =
          "Keep the inventory in ConfigMap NAME in the kubeconfig's default namespace; also the"
              + " owner name in the labels.")
  String inventory;

  @Option(
      names = "--force",
      description = "Delete and recreate objects whose immutable fields changed.")
  boolean force;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Mixin ConcurrencyOption concurrency = new ConcurrencyOption(16);

  @Spec CommandSpec spec;

  private final ManifestSource source;

  public ApplyCommand() {
    this(new BuiltManifests());
  }

  public ApplyCommand(ManifestSource source) {
    this.source = source;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (prune && inventory == null) {
      return CommandRunner.fail(
          err,
          new CliException(
              "--prune needs --inventory NAME to know what was applied before",
              CliException.BAD_INPUT));
    }
    return CommandRunner.run(
        spec,
        cluster,
        CliException.FAILED,
        () -> files.load(source),
        (client, objects) ->
            WorkerPool.run(
                concurrency.requests(),
                pool -> run(client, objects, pool, new ResultPrinter(out), err)));
  }

  private int run(
      KubernetesClient client,
      List<GenericKubernetesResource> objects,
      ExecutorService pool,
      ResultPrinter printer,
      PrintWriter err) {
    String namespace = ClusterOptions.namespace(client, null);
    Owner owner = new Owner(inventory == null ? DEFAULT_OWNER : inventory, namespace);
    ConfigMapInventoryStore store =
        inventory == null ? null : new ConfigMapInventoryStore(client, namespace, inventory);
    InventorySet previous = store == null ? InventorySet.EMPTY : store.load();
    ApplyRequest request =
        ApplyRequest.of(objects, owner)
            .withForce(force)
            .withTimeout(timeout)
            .withDefaultNamespace(namespace)
            .withListener(printer::progress);
    ResourceManager manager = ResourceManager.ofUser(client, pool);
    ApplyResult result = manager.apply(request);
    List<ObjectResult> all = new ArrayList<>(result.objects());
    if (result.succeeded() && store != null) {
      if (prune) {
        List<ObjectResult> pruned = manager.prune(previous, result.inventory(), owner, timeout);
        pruned.forEach(printer::progress);
        all.addAll(pruned);
      }
      store.save(result.inventory());
    }
    printer.summary(all);
    boolean failed = all.stream().anyMatch(ObjectResult::failed);
    if (failed) {
      return 1;
    }
    if (wait) {
      return new HealthWait(manager, timeout).await(objects(result), printer) ? 0 : 1;
    }
    return 0;
  }

  private static List<ObjectRef> objects(ApplyResult result) {
    return result.inventory().refs();
  }
}
