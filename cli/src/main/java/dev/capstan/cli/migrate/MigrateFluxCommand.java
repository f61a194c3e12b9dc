package dev.capstan.cli.migrate;

import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.options.DurationConverter;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code capstan migrate flux}: reads Flux's objects, prints the plan, and with {@code --apply}
 * takes it; {@code --rollback} plans (and with {@code --apply} takes) the way back.
 */
@Command(
    name = "flux",
    mixinStandardHelpOptions = true,
    description = {
      "Move Flux's GitRepositories, OCIRepositories, Buckets, HelmRepositories, HelmCharts,"
          + " ExternalArtifacts, Kustomizations and HelmReleases to Capstan's twins, taking over"
          + " the applied objects and Helm releases without deleting or re-creating any. Prints"
          + " the plan; --apply takes it.",
      "Exit status: 0 done (or planned), 1 a step failed or an object is blocked, 2 bad input."
    })
public final class MigrateFluxCommand implements Callable<Integer> {

  @Option(
      names = "--apply",
      description = "Take the plan's steps. Without it the plan is only printed (a dry run).")
  boolean apply;

  @Option(names = "--dry-run", description = "Only print the plan (the default).")
  boolean dryRun;

  @Option(
      names = "--rollback",
      description = "Hand the migrated objects back to Flux (with --apply; else print the plan).")
  boolean rollback;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description =
          "Only this namespace's objects (the others are read for the sourceRefs that cross"
              + " namespaces). Default: every namespace.")
  String namespace;

  @Option(
      names = "--timeout",
      defaultValue = "5m",
      converter = DurationConverter.class,
      paramLabel = "D",
      description = "How long to wait for each twin to be Ready. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (apply && dryRun) {
      return CommandRunner.fail(
          spec.commandLine().getErr(),
          new CliException("--apply and --dry-run exclude each other", CliException.BAD_INPUT));
    }
    return CommandRunner.run(spec, cluster, this::migrate);
  }

  private int migrate(KubernetesClient client, PrintWriter out, PrintWriter err) {
    KindResources resources = new KindResources(client);
    Optional<String> scope = Optional.ofNullable(namespace);
    KindResources.View flux = resources.around(scope, false);
    KindResources.View capstan = resources.around(scope, true);
    boolean everyNamespace = flux.everyNamespace() && capstan.everyNamespace();
    MigrationPlan plan =
        rollback
            ? Planner.rollback(flux.objects(), capstan.objects(), scope, everyNamespace)
            : Planner.migration(flux.objects(), capstan.objects(), scope, everyNamespace);
    if (!everyNamespace) {
      out.println(
          "other namespaces could not be listed: every source in -n "
              + namespace
              + " keeps running for Flux, in case a Kustomization there uses it");
    }
    new PlanPrinter(out).print(plan);
    if (!apply) {
      out.println("dry run: nothing changed; --apply takes these steps");
      return 0;
    }
    if (!plan.blocked().isEmpty()) {
      throw new CliException(
          plan.blocked().size() + " object(s) blocked (see the plan): nothing migrated",
          CliException.FAILED);
    }
    if (plan.nothingToDo()) {
      out.println("nothing to do");
      return 0;
    }
    ReadyWait ready = new ReadyWait(resources, Clock.systemUTC());
    new MigrationExecutor(client, ready, out).run(plan, timeout);
    out.println(rollback ? "handed back to Flux" : "migrated");
    return 0;
  }
}
