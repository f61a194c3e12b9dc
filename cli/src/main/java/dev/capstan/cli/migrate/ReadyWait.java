package dev.capstan.cli.migrate;

import dev.capstan.cli.cluster.CliException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** Polls an object until Ready is True for its generation, or says what Ready said last. */
final class ReadyWait {

  private static final Duration POLL = Duration.ofSeconds(1);

  private final KindResources resources;
  private final Clock clock;

  ReadyWait(KindResources resources, Clock clock) {
    this.resources = resources;
    this.clock = clock;
  }

  void await(FluxKind kind, boolean capstan, String namespace, String name, Duration timeout) {
    Instant deadline = clock.instant().plus(timeout);
    String last = "not found";
    while (true) {
      var object = resources.read(kind, capstan, namespace, name);
      if (object.isPresent() && object.get().readyNow()) {
        return;
      }
      last = object.map(Manifest::readyMessage).orElse(last);
      if (!clock.instant().isBefore(deadline)) {
        throw new CliException(
            kind.kind + " " + namespace + "/" + name + " not Ready after " + timeout + ": " + last,
            CliException.FAILED);
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException("interrupted while waiting for " + name, CliException.FAILED);
      }
    }
  }
}
