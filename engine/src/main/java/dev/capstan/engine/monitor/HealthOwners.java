package dev.capstan.engine.monitor;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.health.AggregateHealth;

/**
 * One kind of owner whose objects the {@link HealthMonitor} watches (Kustomizations, HelmReleases):
 * which labels name an object's owner, and how the health of an owner's inventory reaches its
 * status.
 */
public interface HealthOwners {

  /** What became of a health the monitor told an owner of. */
  enum Told {
    /** Its Healthy condition now says so: not written again until the health changes. */
    WRITTEN,
    /** Nothing to write (the owner is gone, another replica's, or has nothing to tell). */
    UNCHANGED
  }

  /**
   * The API group whose labels {@code <group>/name} and {@code <group>/namespace} name the owner of
   * an applied object.
   */
  String group();

  /** Whether a reconcile of {@code key} waits for health right now: it is woken, not written. */
  default boolean waiting(NamespacedName key) {
    return false;
  }

  /**
   * Tells {@code key} the health of its objects as the caches have it; a failed write throws the
   * client's exception, and the monitor tries again.
   */
  Told tell(NamespacedName key, AggregateHealth health);
}
