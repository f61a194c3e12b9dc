package dev.capstan.engine.monitor;

import dev.capstan.applier.common.Owner;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.WaitTracker;
import dev.capstan.engine.status.StatusWriter;
import dev.capstan.health.AggregateHealth;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.function.Predicate;

/**
 * Kustomizations as owners of watched objects: Healthy alone is rewritten from the health, unless a
 * reconcile waits for it.
 */
public final class KustomizationHealthWrites implements HealthOwners {
  private final StatusWriter statuses;
  private final WaitTracker waits;
  private final Clock clock;
  private final Predicate<HasMetadata> owns;

  /** {@code owns}: whether this replica owns a Kustomization (the others write theirs). */
  public KustomizationHealthWrites(
      StatusWriter statuses, WaitTracker waits, Clock clock, Predicate<HasMetadata> owns) {
    this.statuses = statuses;
    this.waits = waits;
    this.clock = clock;
    this.owns = owns;
  }

  @Override
  public String group() {
    return Owner.KUSTOMIZATION_GROUP;
  }

  @Override
  public boolean waiting(NamespacedName key) {
    return waits.isWaiting(key);
  }

  @Override
  public Told tell(NamespacedName key, AggregateHealth health) {
    // a Kustomization another replica took over is that replica's to write (unchanged here)
    statuses.update(
        key,
        ks ->
            !owns.test(ks)
                ? ks.getStatus()
                : KustomizationStatuses.withHealth(
                    ks.getStatus(),
                    health,
                    ks.getMetadata().getGeneration() == null ? 0 : ks.getMetadata().getGeneration(),
                    clock.instant()));
    return Told.WRITTEN;
  }
}
