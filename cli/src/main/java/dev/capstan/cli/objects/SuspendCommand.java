package dev.capstan.cli.objects;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;

/**
 * {@code capstan suspend ks|gitrepo|ocirepo|helmrepo|bucket|hr NAME}: sets {@code spec.suspend} so
 * the controller leaves it alone.
 */
@Command(
    name = "suspend",
    mixinStandardHelpOptions = true,
    description = {
      "Suspend a Kustomization (or GitRepository, OCIRepository): the controller stops reconciling"
          + " it until it is resumed.",
      "Exit status: 0 suspended, 1 not found or the cluster failed, 2 bad input."
    })
public final class SuspendCommand extends SuspensionCommand {

  public SuspendCommand() {
    super(true, Clock.systemUTC());
  }

  @Override
  Optional<Duration> waitFor() {
    return Optional.empty();
  }
}
