package dev.capstan.cli.objects;

import dev.capstan.cli.options.DurationConverter;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --timeout} of {@code reconcile} and {@code resume}: how long the {@link ReconcileWaiter}
 * waits for the controller to handle one reconcile request.
 */
final class ReconcileTimeout {

  @Option(
      names = "--timeout",
      defaultValue = "5m",
      paramLabel = "D",
      converter = DurationConverter.class,
      description =
          "How long to wait for each reconcile (e.g. 90s, 1.5m, 1h2m). Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  Duration duration() {
    return timeout;
  }
}
