package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.api.kustomize.HealthCheckExpression;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * An object this HelmRelease waits for: another HelmRelease (no apiVersion and kind, as in Flux) or
 * any object of a kind the API server serves, as a Kustomization's dependencies are.
 */
@ValidationRule(
    value = "!has(self.apiVersion) || has(self.kind)",
    message = "apiVersion needs kind")
@ValidationRule(
    value = "!has(self.kind) || self.kind == 'HelmRelease' || has(self.apiVersion)",
    message = "kind other than HelmRelease needs apiVersion")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record HelmReleaseDependency(
    @Size(max = 317)
        @Pattern(DependencyReference.API_VERSION_PATTERN)
        @JsonPropertyDescription(
            "API version of the dependency, e.g. 'apps/v1'. Omitted (with kind) for a"
                + " HelmRelease.")
        String apiVersion,
    @Size(max = 63)
        @Pattern(DependencyReference.KIND_PATTERN)
        @JsonPropertyDescription(
            "Kind of the dependency; defaults to HelmRelease. Another kind is ready when its"
                + " health status is Current, or when readyExpr is true.")
        String kind,
    @Required @Size(max = 253) @JsonPropertyDescription("Name of the dependency.") String name,
    @Size(max = 63) @JsonPropertyDescription("Namespace of the dependency; defaults to this one's.")
        String namespace,
    @Size(max = HealthCheckExpression.MAX_EXPRESSION_LENGTH)
        @JsonPropertyDescription(
            "CEL expression over the dependency object ('dep') that, when true, counts it as"
                + " ready.")
        String readyExpr) {}
