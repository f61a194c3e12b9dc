package dev.capstan.cli.faults;

import dev.capstan.cli.faults.FaultyProxy.Mode;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * What a user must see while the registry fails: the fetch asked for during the fault (or a later
 * one) handled and failed, the OCIRepository {@code Ready=False} with a message that names the pull
 * and (for 500s) the answer, not a stack trace; the artifact pushed during the fault neither stored
 * nor applied, so the Kustomizations keep the last one. Without this a registry fault could pass by
 * not biting.
 */
final class RegistryFailureCheck {
  private final RegistrySide side;
  private final Mode mode;
  private final String pushed;
  private final Instant requestedAt;

  /**
   * @param pushed the revision pushed during the fault
   * @param requestedAt the fetch request made after that push
   */
  RegistryFailureCheck(RegistrySide side, Mode mode, String pushed, String requestedAt) {
    this.side = side;
    this.mode = mode;
    this.pushed = pushed;
    this.requestedAt = Instant.parse(requestedAt);
  }

  /** Waits until the fetch failed clearly; throws saying what was seen if not within atMost. */
  void await(Duration atMost) throws InterruptedException {
    long end = System.nanoTime() + atMost.toNanos();
    Optional<Condition> ready = Optional.empty();
    while (System.nanoTime() < end) {
      keptTheLastArtifact();
      ready = side.sourceReady();
      boolean handled = side.lastHandledRequest().filter(this::notBeforeOurs).isPresent();
      if (handled && ready.isPresent() && "False".equals(ready.get().getStatus())) {
        String message = String.valueOf(ready.get().getMessage());
        if (message.contains("\tat ") || message.contains("Exception:")) {
          throw new IllegalStateException(
              "the registry fault's fetch failure reads as a stack trace: " + message);
        }
        if (clear(message)) {
          keptTheLastArtifact();
          if (side.artifactRevision().isEmpty()) {
            throw new IllegalStateException(
                "the OCIRepository lost its artifact during the registry fault (" + mode + ")");
          }
          return;
        }
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(
        "the fetch through the registry fault ("
            + mode
            + ") did not fail clearly within "
            + atMost.toSeconds()
            + " s; the OCIRepository's Ready: "
            + ready
                .map(c -> c.getStatus() + " " + c.getReason() + ": " + c.getMessage())
                .orElse("none"));
  }

  /**
   * Whether a handled request is ours or a later one (the commit stream may ask for a fetch of its
   * own push during the fault, and the status echoes the latest request handled).
   */
  private boolean notBeforeOurs(String handled) {
    try {
      return !Instant.parse(handled).isBefore(requestedAt);
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private boolean clear(String message) {
    return message.startsWith("failed to pull artifact from 'oci://")
        && (mode != Mode.ERROR_500 || message.contains("500"));
  }

  private void keptTheLastArtifact() {
    if (side.artifactRevision().filter(pushed::equals).isPresent()) {
      throw new IllegalStateException(
          "the artifact pushed during the registry fault (" + mode + ") was fetched through it");
    }
    for (Map.Entry<String, String> applied : side.appliedRevisions().entrySet()) {
      if (pushed.equals(applied.getValue())) {
        throw new IllegalStateException(
            applied.getKey()
                + " applied the artifact pushed during the registry fault ("
                + mode
                + ")");
      }
    }
  }
}
