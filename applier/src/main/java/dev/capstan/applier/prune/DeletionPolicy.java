package dev.capstan.applier.prune;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What happens to a Kustomization's objects when the Kustomization itself is deleted (the
 * {@code spec.deletionPolicy} values Flux defines).
 */
public enum DeletionPolicy {
  /** Delete the objects only when {@code spec.prune} is true (the default). */
  MIRROR_PRUNE("MirrorPrune"),
  /** Always delete the objects. */
  DELETE("Delete"),
  /** Always delete the objects and wait until they are gone. */
  WAIT_FOR_TERMINATION("WaitForTermination"),
  /** Never delete the objects. */
  ORPHAN("Orphan");

  private final String value;

  DeletionPolicy(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /** The policy for a spec value; null or empty means {@link #MIRROR_PRUNE}. */
  public static DeletionPolicy parse(String value) {
    if (value == null || value.isEmpty()) {
      return MIRROR_PRUNE;
    }
    return Arrays.stream(values())
        .filter(p -> p.value.equals(value))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "deletionPolicy '" + value + "' is not one of "
                        + Arrays.stream(values()).map(DeletionPolicy::value).collect(Collectors.joining(", "))));
  }

  /** Whether the inventory is deleted along with a Kustomization whose {@code spec.prune} is given. */
  public boolean deletesObjects(boolean prune) {
    return switch (this) {
      case MIRROR_PRUNE -> prune;
      case DELETE, WAIT_FOR_TERMINATION -> true;
      case ORPHAN -> false;
    };
  }

  /** Whether the deletion waits until every object is gone (finalizers done). */
  public boolean waitsForTermination() {
    return this == WAIT_FOR_TERMINATION;
  }
}
