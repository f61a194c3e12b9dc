package dev.capstan.cli.faults;

import dev.capstan.cli.faults.FaultyProxy.Mode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * What a user must see while the registry fails: the fetch asked for during the fault (or a later
 * one) handled and failed, the OCIRepository {@code Ready=False} with a message that names the pull
 * and (for 500s) the answer, not a stack trace; the artifact pushed during the fault neither stored
 * nor applied for the whole fault, so the Kustomizations keep the last one. Without this a registry
 * fault could pass by not biting.
 */
final class RegistryFailureCheck {
  /**
   * How long the fetch may take to fail clearly: two of the OCIRepository's fetch timeouts (one
   * fetch may be in flight from before the fault, then ours) and a margin for the status write.
   */
  static final Duration BUDGET = RegistrySide.FETCH_TIMEOUT.multipliedBy(2).plusSeconds(5);

  private static final String PULL_FAILED = "failed to pull artifact from '";

  private final RegistryStatus status;
  private final Mode mode;
  private final String pushed;
  private final Instant requestedAt;

  /**
   * @param pushed the revision pushed during the fault
   * @param requestedAt the fetch request made after that push
   */
  RegistryFailureCheck(RegistryStatus status, Mode mode, String pushed, String requestedAt) {
    this.status = status;
    this.mode = mode;
    this.pushed = pushed;
    this.requestedAt = Instant.parse(requestedAt);
  }

  /** Waits until the fetch failed clearly; throws saying what was seen if not within atMost. */
  void await(Duration atMost) throws InterruptedException {
    SourceFailureWait.await(
        "the fetch through the registry fault (" + mode + ")",
        "OCIRepository",
        atMost,
        status::sourceReady,
        message -> handledOurs() && clear(message, mode),
        this::keptTheLastArtifact);
    keptTheLastArtifact();
  }

  /** Keeps checking that the pushed artifact is neither stored nor applied until {@code end}. */
  void guardUntil(long endNanos) throws InterruptedException {
    SourceFailureWait.guardUntil(endNanos, this::keptTheLastArtifact);
  }

  /**
   * Whether a failed fetch's message is clear for {@code mode}: it names the pull, and for 500s its
   * reason (what follows the URL, whose port may well contain 500) names the answer.
   */
  static boolean clear(String message, Mode mode) {
    if (!message.startsWith(PULL_FAILED + "oci://")) {
      return false;
    }
    int urlEnd = message.indexOf('\'', PULL_FAILED.length());
    if (urlEnd < 0) {
      return false;
    }
    return mode != Mode.ERROR_500 || message.substring(urlEnd + 1).contains("500");
  }

  /**
   * Whether the latest request handled is ours or a later one (the commit stream may ask for a
   * fetch of its own push during the fault, and the status echoes the latest request handled).
   */
  private boolean handledOurs() {
    return status.lastHandledRequest().filter(this::notBeforeOurs).isPresent();
  }

  private boolean notBeforeOurs(String handled) {
    try {
      return !Instant.parse(handled).isBefore(requestedAt);
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private void keptTheLastArtifact() {
    String stored = status.artifactRevision().orElse(null);
    if (stored == null) {
      throw new IllegalStateException(
          "the OCIRepository lost its artifact during the registry fault (" + mode + ")");
    }
    if (pushed.equals(stored)) {
      throw new IllegalStateException(
          "the artifact pushed during the registry fault (" + mode + ") was fetched through it");
    }
    for (Map.Entry<String, String> applied : status.appliedRevisions().entrySet()) {
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
