package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** What Capstan observed at the last fetch of a GitRepository. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GitRepositoryStatus(
    Long observedGeneration,
    List<Condition> conditions,
    Artifact artifact,
    String lastHandledReconcileAt) {}
