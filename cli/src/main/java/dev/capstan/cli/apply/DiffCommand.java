package dev.capstan.cli.apply;

import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.diff.DiffReport;
import dev.capstan.applier.diff.ObjectDiff;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.cli.cluster.ClusterOptions;
import dev.capstan.cli.cluster.CommandRunner;
import dev.capstan.cli.options.ConcurrencyOption;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code capstan diff}: what {@code capstan apply} would change, as a unified diff per object. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    subcommands = {DiffHelmReleaseCommand.class},
    description = {
      "Show what applying a directory would change (server-side dry-run against live state).",
      "Secret values are masked. Exit status: 0 no changes, 1 changes, 2 bad input or rejected"
          + " objects."
    })
public final class DiffCommand implements Callable<Integer> {

  // Not ManifestOptions: its -f is required, and the parser checks a command's required options
  // before it reads a subcommand, so `diff hr` would need a -f it does not use.
  @Option(
      names = {"-f", "--filename"},
      paramLabel = "DIR",
      description = ManifestOptions.DIRECTORY_HELP + " Required unless a subcommand is given.")
  Path directory;

  @Option(names = "--root", paramLabel = "DIR", description = ManifestOptions.ROOT_HELP)
  Path rootDirectory;

  @Option(
      names = "--inventory",
      paramLabel = "NAME",
      description = "Owner name used by apply --inventory, so labels compare equal.")
  String inventory;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Mixin ConcurrencyOption concurrency = new ConcurrencyOption(8);

  @Spec CommandSpec spec;

  private final ManifestSource source;

  public DiffCommand() {
    this(new BuiltManifests());
  }

  public DiffCommand(ManifestSource source) {
    this.source = source;
  }

  @Override
  public Integer call() {
    if (directory == null) {
      throw new ParameterException(spec.commandLine(), "Missing required option: '--filename=DIR'");
    }
    ManifestOptions files = ManifestOptions.of(directory, rootDirectory);
    PrintWriter out = spec.commandLine().getOut();
    // exit 1 says that something would change: a failure is 2
    return CommandRunner.run(
        spec,
        cluster,
        CliException.BAD_INPUT,
        () -> files.load(source),
        (client, objects) ->
            WorkerPool.run(concurrency.requests(), pool -> diff(client, objects, pool, out)));
  }

  private int diff(
      KubernetesClient client,
      List<GenericKubernetesResource> objects,
      ExecutorService pool,
      PrintWriter out) {
    String namespace = ClusterOptions.namespace(client, null);
    Owner owner = new Owner(inventory == null ? ApplyCommand.DEFAULT_OWNER : inventory, namespace);
    DiffReport report = ResourceManager.ofUser(client, pool).diff(objects, owner, namespace);
    print(report, out);
    if (report.hasFailures()) {
      return 2;
    }
    return report.hasChanges() ? 1 : 0;
  }

  static void print(DiffReport report, PrintWriter out) {
    print(report, List.of(), UnaryOperator.identity(), out);
  }

  /**
   * Prints each object that would change, and each of {@code deleted} as a deletion, every text
   * passed through {@code mask} first; then how many of all would change.
   */
  static void print(
      DiffReport report, List<ObjectRef> deleted, UnaryOperator<String> mask, PrintWriter out) {
    int changed = 0;
    for (ObjectDiff d : report.objects()) {
      switch (d.change()) {
        case UNCHANGED -> {}
        case FAILED -> out.println(mask.apply("! " + d.ref() + ": " + d.text()));
        case CREATED, CHANGED -> {
          changed++;
          out.println(
              (d.change() == ObjectDiff.Change.CREATED ? "+ " : "~ ")
                  + d.ref()
                  + (d.change() == ObjectDiff.Change.CREATED
                      ? " (would be created)"
                      : " (would change)"));
          String text = mask.apply(d.text());
          out.print(text);
          if (!text.endsWith("\n")) {
            out.println(); // a withheld diff is one line without its end
          }
        }
      }
    }
    for (ObjectRef ref : deleted) {
      out.println("- " + ref + " (would be deleted)");
    }
    out.printf(
        "%d of %d objects would change%n",
        changed + deleted.size(), report.objects().size() + deleted.size());
    out.flush();
  }
}
