package dev.capstan.engine.conditions;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.health.AggregateHealth;
import java.time.Instant;
import java.util.Objects;

/**
 * What one reconcile observed; the input of {@link KustomizationStatuses#next}.
 *
 * @param generation the Kustomization's metadata.generation
 * @param now when the observation was made (condition transition times)
 * @param handledRequestedAt the {@code reconcile.capstan.dev/requestedAt} value handled, or null
 * @param attemptedRevision the source revision tried, or null when the source was not reached
 * @param phase where the reconcile ended up
 * @param inventory the objects now in the cluster, or null when unchanged
 * @param health the health of the applied objects, or null when not evaluated
 * @param drift the drift the apply found, or null when the apply did not run to its end
 */
public record Observation(
    long generation,
    Instant now,
    String handledRequestedAt,
    String attemptedRevision,
    Phase phase,
    Inventory inventory,
    AggregateHealth health,
    Drift drift) {

  public Observation {
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(phase, "phase");
  }

  public static Observation of(long generation, Instant now, Phase phase) {
    return new Observation(generation, now, null, null, phase, null, null, null);
  }

  public Observation withRequestedAt(String value) {
    return new Observation(
        generation, now, value, attemptedRevision, phase, inventory, health, drift);
  }

  public Observation withAttemptedRevision(String value) {
    return new Observation(
        generation, now, handledRequestedAt, value, phase, inventory, health, drift);
  }

  public Observation withInventory(Inventory value) {
    return new Observation(
        generation, now, handledRequestedAt, attemptedRevision, phase, value, health, drift);
  }

  public Observation withHealth(AggregateHealth value) {
    return new Observation(
        generation, now, handledRequestedAt, attemptedRevision, phase, inventory, value, drift);
  }

  public Observation withDrift(Drift value) {
    return new Observation(
        generation, now, handledRequestedAt, attemptedRevision, phase, inventory, health, value);
  }
}
