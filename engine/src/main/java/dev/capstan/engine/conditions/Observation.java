package dev.capstan.engine.conditions;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.health.AggregateHealth;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * @param reconciled what was built, when the reconcile got past the build; null otherwise
 */
@RecordBuilder
public record Observation(
    long generation,
    Instant now,
    String handledRequestedAt,
    String attemptedRevision,
    Phase phase,
    Inventory inventory,
    AggregateHealth health,
    Drift drift,
    Reconciled reconciled)
    implements ObservationBuilder.With {

  /**
   * The set of objects a reconcile built and went on to apply, for {@code status.history} and
   * {@code status.lastAppliedOriginRevision}.
   *
   * @param digest the digest of the built set (sha256:…)
   * @param took from the start of the reconcile that applied it until now
   * @param revision the source revision it was built from
   * @param originRevision the artifact's origin revision, or null when its source records none
   */
  public record Reconciled(String digest, Duration took, String revision, String originRevision) {
    public Reconciled {
      Objects.requireNonNull(digest, "digest");
      Objects.requireNonNull(took, "took");
      Objects.requireNonNull(revision, "revision");
    }

    /** The history entry's metadata, as Flux names it. */
    public Map<String, String> metadata() {
      Map<String, String> metadata = new LinkedHashMap<>();
      metadata.put("revision", revision);
      if (originRevision != null && !originRevision.isEmpty()) {
        metadata.put("originRevision", originRevision);
      }
      return metadata;
    }
  }

  public Observation {
    Objects.requireNonNull(now, "now");
    Objects.requireNonNull(phase, "phase");
  }

  /** An observation of a reconcile that reached nothing but {@code phase}. */
  public static Observation of(long generation, Instant now, Phase phase) {
    return ObservationBuilder.builder().generation(generation).now(now).phase(phase).build();
  }
}
