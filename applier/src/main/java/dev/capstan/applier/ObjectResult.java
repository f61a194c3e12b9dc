package dev.capstan.applier;

import dev.capstan.health.ObjectRef;

/** The outcome for one object; {@code reason} is the API server's message when it failed. */
public record ObjectResult(ObjectRef ref, Action action, String reason) {

  public ObjectResult {
    reason = reason == null ? "" : reason;
  }

  public static ObjectResult of(ObjectRef ref, Action action) {
    return new ObjectResult(ref, action, "");
  }

  public boolean failed() {
    return action == Action.FAILED;
  }
}
