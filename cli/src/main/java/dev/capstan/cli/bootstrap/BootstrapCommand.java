package dev.capstan.cli.bootstrap;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code capstan bootstrap}: Capstan kept up to date from a repository; {@code git} for now. */
@Command(
    name = "bootstrap",
    mixinStandardHelpOptions = true,
    description = "Install Capstan and keep it up to date from a repository.",
    subcommands = {BootstrapGitCommand.class})
public final class BootstrapCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
