package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.ReconciledStatus;
import dev.capstan.api.common.Snapshot;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What Capstan observed at the last reconcile of a Kustomization. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record KustomizationStatus(
    Long observedGeneration,
    List<Condition> conditions,
    String lastAppliedRevision,
    String lastAttemptedRevision,
    String lastHandledReconcileAt,
    Inventory inventory,
    @JsonPropertyDescription(
            "The origin revision of the last applied artifact, when its source records one (the"
                + " org.opencontainers.image.revision of an OCI artifact).")
        String lastAppliedOriginRevision,
    @JsonPropertyDescription(
            "The last reconciles, most recent first, at most 5: one entry per applied set (digest)"
                + " and outcome, with its revision, first and last time and count.")
        List<Snapshot> history)
    implements ReconciledStatus {

  /** A status without an origin revision or history. */
  public KustomizationStatus(
      Long observedGeneration,
      List<Condition> conditions,
      String lastAppliedRevision,
      String lastAttemptedRevision,
      String lastHandledReconcileAt,
      Inventory inventory) {
    this(
        observedGeneration,
        conditions,
        lastAppliedRevision,
        lastAttemptedRevision,
        lastHandledReconcileAt,
        inventory,
        null,
        null);
  }
}
