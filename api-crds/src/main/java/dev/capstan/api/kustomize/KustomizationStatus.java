package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
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
    Inventory inventory) {}
