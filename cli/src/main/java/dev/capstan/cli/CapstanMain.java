package dev.capstan.cli;

import dev.capstan.cli.apply.ApplyCommand;
import dev.capstan.cli.apply.BuildCommand;
import dev.capstan.cli.apply.DiffCommand;
import dev.capstan.cli.bootstrap.BootstrapCommand;
import dev.capstan.cli.fetch.OciFetchCommand;
import dev.capstan.cli.install.InstallCommand;
import dev.capstan.cli.migrate.MigrateCommand;
import dev.capstan.cli.objects.GetCommand;
import dev.capstan.cli.objects.ReconcileCommand;
import dev.capstan.cli.objects.ResumeCommand;
import dev.capstan.cli.objects.SuspendCommand;
import dev.capstan.cli.objects.TreeCommand;
import dev.capstan.cli.push.PushCommand;
import dev.capstan.cli.run.RunCommand;
import dev.capstan.cli.status.StatusCommand;
import dev.capstan.cli.ui.UiCommand;
import dev.capstan.source.git.GitSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code capstan} command line: the controller ({@code run}) and its web view ({@code ui}), the
 * steps a controller takes, run by hand ({@code build}, {@code apply}, {@code diff}, {@code fetch},
 * {@code push}), and the commands that read and steer a cluster's objects ({@code status}, {@code
 * get}, {@code tree}, {@code reconcile}, {@code suspend}, {@code resume}), the two that put Capstan
 * into a cluster ({@code install}, {@code bootstrap git}), and the one that moves a cluster over
 * from Flux ({@code migrate flux}).
 */
@Command(
    name = "capstan",
    mixinStandardHelpOptions = true,
    versionProvider = CapstanVersion.class,
    description = "GitOps reconciliation engine for Kubernetes.",
    subcommands = {CommandLine.HelpCommand.class})
public final class CapstanMain implements Runnable {

  @CommandLine.Spec CommandSpec spec;

  public static void main(String[] args) {
    // Before any HTTP use, as the JDK reads it once: lets a GitRepository's proxy credentials
    // (spec.proxySecretRef) open https tunnels. Safe: it only permits Basic auth for tunnels, and
    // proxy credentials come only from authenticators set on one fetch's own connections.
    GitSource.allowBasicProxyCredentialsForTunnels();
    oneBufferArena();
    int exitCode = commandLine(args).execute(args);
    System.exit(exitCode);
  }

  /**
   * Before the API client's network library starts, as it reads these once: one pool of I/O buffers
   * instead of one per event-loop thread (two per core), each of which holds a 4 MiB chunk once
   * used. The client's few event loops do not contend for one pool; the engine's resident memory is
   * 12 MiB smaller. A value given with -D is kept.
   */
  static void oneBufferArena() {
    for (String arenas :
        List.of("io.netty.allocator.numDirectArenas", "io.netty.allocator.numHeapArenas")) {
      if (System.getProperty(arenas) == null) {
        System.setProperty(arenas, "1");
      }
    }
  }

  /** The fully assembled command line; tests execute it in-process. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new CapstanMain());
    subcommands().forEach((name, command) -> cli.addSubcommand(name, command.get()));
    return cli;
  }

  /**
   * The command line for these arguments: when they start with a subcommand's name, only that
   * subcommand is built, since building the model of all sixteen takes a short command's JVM about
   * a tenth of a second. Anything else (help, usage errors) gets the full command line.
   */
  static CommandLine commandLine(String[] args) {
    Supplier<Object> named = args.length == 0 ? null : subcommands().get(args[0]);
    if (named == null) {
      return commandLine();
    }
    CommandLine cli = new CommandLine(new CapstanMain());
    cli.addSubcommand(args[0], named.get());
    return cli;
  }

  private static Map<String, Supplier<Object>> subcommands() {
    Map<String, Supplier<Object>> all = new LinkedHashMap<>();
    all.put("status", StatusCommand::new);
    all.put("build", BuildCommand::new);
    all.put("apply", ApplyCommand::new);
    all.put("diff", DiffCommand::new);
    all.put("fetch", OciFetchCommand::new);
    all.put("push", PushCommand::new);
    all.put("run", RunCommand::new);
    all.put("install", InstallCommand::new);
    all.put("bootstrap", BootstrapCommand::new);
    all.put("migrate", MigrateCommand::new);
    all.put("get", GetCommand::new);
    all.put("reconcile", ReconcileCommand::new);
    all.put("suspend", SuspendCommand::new);
    all.put("resume", ResumeCommand::new);
    all.put("tree", TreeCommand::new);
    all.put("ui", UiCommand::new);
    return all;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
