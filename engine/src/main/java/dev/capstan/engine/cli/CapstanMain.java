package dev.capstan.engine.cli;

import dev.capstan.applier.cli.ApplyCommand;
import dev.capstan.applier.cli.BuildCommand;
import dev.capstan.applier.cli.DiffCommand;
import dev.capstan.health.cli.StatusCommand;
import dev.capstan.source.cli.FetchCommand;
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

  @CommandLine.Spec CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The fully assembled command line; tests execute it in-process. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new CapstanMain());
    cli.addSubcommand("status", new StatusCommand());
    cli.addSubcommand("build", new BuildCommand());
    cli.addSubcommand("apply", new ApplyCommand());
    cli.addSubcommand("diff", new DiffCommand());
    cli.addSubcommand("fetch", new FetchCommand());
    cli.addSubcommand("run", new RunCommand());
    cli.addSubcommand("get", new GetCommand());
    cli.addSubcommand("reconcile", new ReconcileCommand());
    cli.addSubcommand("suspend", new SuspendCommand());
    cli.addSubcommand("resume", new ResumeCommand());
    cli.addSubcommand("tree", new TreeCommand());
    return cli;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
