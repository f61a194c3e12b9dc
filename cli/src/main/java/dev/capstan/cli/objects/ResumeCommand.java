package dev.capstan.cli.objects;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capstan resume ks|gitrepo|ocirepo|helmrepo|bucket|hr NAME}: clears {@code spec.suspend}
 * and, in the same patch, asks for a reconcile, then waits for its outcome.
 */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description = {
      "Resume a suspended Kustomization (or GitRepository, OCIRepository) and wait for the"
          + " reconcile it triggers.",
      "Exit status: 0 resumed and Ready, 1 not Ready, timed out or not found, 2 bad input."
    })
public final class ResumeCommand extends SuspensionCommand {

  @Option(
      names = "--no-wait",
      description = "Return once resumed, without waiting for the reconcile.")
  boolean noWait;

  @Mixin ReconcileTimeout timeout = new ReconcileTimeout();

  public ResumeCommand() {
    this(Clock.systemUTC());
  }

  ResumeCommand(Clock clock) {
    super(false, clock);
  }

  @Override
  Optional<Duration> waitFor() {
    return noWait ? Optional.empty() : Optional.of(timeout.duration());
  }
}
