package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A Kustomization this one waits for. */
public record DependencyReference(
    @Required @Size(max = 253) String name,
    @Size(max = 63) @JsonPropertyDescription("Namespace of the dependency; defaults to this one's.")
    String namespace,
    @Size(max = HealthCheckExpression.MAX_EXPRESSION_LENGTH)
    @JsonPropertyDescription("CEL expression over the dependency object ('dep') that, when true, "
        + "counts it as ready instead of its Ready condition.")
    String readyExpr) {}
