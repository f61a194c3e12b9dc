package dev.capstan.engine.kustomization;

import java.time.Duration;
import java.util.Optional;

/**
 * What one look at a Kustomization being deleted came to: done (its finalizer may go), or to be
 * looked at again (its dependents are not gone yet, or deleting its objects was refused).
 */
public record Deletion(Optional<Duration> again) {

  /** Done: the Kustomization may go. */
  public static final Deletion DONE = new Deletion(Optional.empty());

  static Deletion again(Duration after) {
    return new Deletion(Optional.of(after));
  }

  public boolean done() {
    return again.isEmpty();
  }
}
