package dev.capstan.cli.push;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code capstan push}: publishes to a registry; {@code push artifact} is the one thing it does.
 */
@Command(
    name = "push",
    mixinStandardHelpOptions = true,
    description = "Push to an OCI registry.",
    subcommands = {PushArtifactCommand.class})
public final class PushCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
