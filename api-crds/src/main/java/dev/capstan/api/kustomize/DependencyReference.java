package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * An object this Kustomization waits for: another Kustomization (no apiVersion and kind, as in
 * Flux) or any object of a kind the API server serves.
 */
@ValidationRule(
    value = "!has(self.apiVersion) || has(self.kind)",
    message = "apiVersion needs kind")
@ValidationRule(
    value = "!has(self.kind) || self.kind == 'Kustomization' || has(self.apiVersion)",
    message = "kind other than Kustomization needs apiVersion")
@JsonIgnoreProperties(ignoreUnknown = true)
public record DependencyReference(
    @Size(max = 317)
        @Pattern(API_VERSION_PATTERN)
        @JsonPropertyDescription(
            "API version of the dependency, 'group/version' or 'v1' for the core group, "
                + "e.g. 'apps/v1'. Omitted (with kind) for a Kustomization.")
        String apiVersion,
    @Size(max = 63)
        @Pattern(KIND_PATTERN)
        @JsonPropertyDescription(
            "Kind of the dependency, e.g. 'Deployment'; defaults to Kustomization. An object other"
                + " than a Kustomization is ready when its health status (kstatus, or the built-in"
                + " and spec.healthCheckExprs CEL checks) is Current, or when readyExpr is true.")
        String kind,
    @Required @Size(max = 253) @JsonPropertyDescription("Name of the dependency.") String name,
    @Size(max = 63)
        @JsonPropertyDescription(
            "Namespace of the dependency; defaults to this one's. "
                + "Ignored for a cluster-scoped kind.")
        String namespace,
    @Size(max = HealthCheckExpression.MAX_EXPRESSION_LENGTH)
        @JsonPropertyDescription(
            "CEL expression over the dependency object ('dep') that, when true, counts it as ready"
                + " instead of its Ready condition (Kustomization) or health status (other kinds).")
        String readyExpr) {

  /**
   * A Kubernetes API version: an optional DNS-subdomain group, then a version such as v1 or
   * v2beta1.
   */
  public static final String API_VERSION_PATTERN =
      "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
          + "v[0-9]+((alpha|beta)[0-9]+)?$";

  /** A Kubernetes kind: an upper-case letter, then letters and digits. */
  public static final String KIND_PATTERN = "^[A-Z][A-Za-z0-9]*$";

  /** A Kustomization this one waits for, by name and namespace (as in Flux). */
  public static DependencyReference kustomization(String name, String namespace, String readyExpr) {
    return new DependencyReference(null, null, name, namespace, readyExpr);
  }
}
