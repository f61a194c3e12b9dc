package dev.capstan.engine.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code capstan} command line: one subcommand per pipeline stage, plus the controller. */
@Command(
    name = "capstan",
    mixinStandardHelpOptions = true,
    versionProvider = CapstanVersion.class,
    description = "GitOps reconciliation engine for Kubernetes.",
    subcommands = {CommandLine.HelpCommand.class})
public final class CapstanMain implements Runnable {

  /** Subcommands that later stages will provide; until then they say so and exit 3. */
  static final String[][] PLANNED = {
    {"status", "Evaluate the health of objects in a file, without a cluster."},
    {"build", "Print the objects that would be applied for a directory."},
    {"apply", "Apply a directory to the cluster with server-side apply."},
    {"diff", "Show what applying a directory would change."},
    {"fetch", "Fetch a Git ref into a directory and print its revision."},
    {"run", "Run the controller."},
    {"get", "List Kustomizations or GitRepositories."},
    {"reconcile", "Ask for an immediate reconcile."},
    {"suspend", "Suspend a Kustomization."},
    {"resume", "Resume a Kustomization."},
    {"tree", "Show a Kustomization's inventory as a tree."},
  };

  @CommandLine.Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The fully assembled command line; tests execute it in-process. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new CapstanMain());
    cli.addSubcommand("fetch", new dev.capstan.source.cli.FetchCommand());
    cli.addSubcommand("status", new dev.capstan.health.cli.StatusCommand());
    cli.addSubcommand("apply", new dev.capstan.applier.cli.ApplyCommand());
    cli.addSubcommand("diff", new dev.capstan.applier.cli.DiffCommand());
    cli.addSubcommand("run", new RunCommand());
    cli.addSubcommand("build", new dev.capstan.applier.cli.BuildCommand());
    cli.addSubcommand("get", new GetCommand());
    cli.addSubcommand("reconcile", new ReconcileCommand());
    cli.addSubcommand("suspend", new SuspendCommand());
    cli.addSubcommand("resume", new ResumeCommand());
    cli.addSubcommand("tree", new TreeCommand());
    for (String[] planned : PLANNED) {
      if (!cli.getSubcommands().containsKey(planned[0])) {
        cli.addSubcommand(planned[0], NotYetAvailable.spec(planned[0], planned[1]));
      }
    }
    return cli;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
