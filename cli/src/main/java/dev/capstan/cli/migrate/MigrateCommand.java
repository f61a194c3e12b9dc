package dev.capstan.cli.migrate;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code capstan migrate}: another GitOps controller's objects handed to Capstan; Flux for now. */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description = "Move a cluster's GitOps objects from another controller to Capstan.",
    subcommands = {MigrateFluxCommand.class})
public final class MigrateCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
