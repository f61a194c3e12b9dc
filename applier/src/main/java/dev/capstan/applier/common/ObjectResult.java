package dev.capstan.applier.common;

import dev.capstan.kube.ObjectRef;
import java.util.List;

/**
 * The outcome for one object; {@code reason} is the API server's message when it failed.
 *
 * @param fields for {@link Action#DRIFTED}: JSON Pointers of the fields another writer changed,
 *     sorted (empty when the object was deleted or could not be compared); empty otherwise
 */
public record ObjectResult(ObjectRef ref, Action action, String reason, List<String> fields) {

  public ObjectResult {
    reason = reason == null ? "" : reason;
    fields = fields == null ? List.of() : List.copyOf(fields);
  }

  public ObjectResult(ObjectRef ref, Action action, String reason) {
    this(ref, action, reason, List.of());
  }

  public static ObjectResult of(ObjectRef ref, Action action) {
    return new ObjectResult(ref, action, "");
  }

  public boolean failed() {
    return action == Action.FAILED;
  }
}
