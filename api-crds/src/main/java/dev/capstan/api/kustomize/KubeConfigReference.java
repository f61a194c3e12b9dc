package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.LocalObjectReference;
import dev.capstan.api.common.SecretKeyReference;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Where the cluster that a Kustomization applies to is described, when it is not the engine's own:
 * a Secret holding a kubeconfig, or a ConfigMap naming an API server that trusts service account
 * tokens of the engine's cluster.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "has(self.secretRef) != has(self.configMapRef)",
    message = "spec.kubeConfig: exactly one of secretRef and configMapRef must be set")
@JsonIgnoreProperties(ignoreUnknown = true)
public record KubeConfigReference(
    @JsonPropertyDescription(
            "Secret in the Kustomization's namespace holding a self-contained kubeconfig (inline"
                + " certificates and tokens only; exec and auth-provider plugins and file paths are"
                + " refused) under key (default: value, else value.yaml). Objects are applied,"
                + " health-checked, pruned and deleted on the current context's cluster of that"
                + " kubeconfig.")
        SecretKeyReference secretRef,
    @JsonPropertyDescription(
            "ConfigMap in the Kustomization's namespace for secret-less access: data.provider"
                + " (generic), data.address (the API server's https URL), data[\"ca.crt\"]"
                + " (optional PEM), data.audiences (optional, one per line; default: the address)"
                + " and data.serviceAccountName (optional): a token of that service account of the"
                + " engine's cluster, for those audiences, authenticates to the remote API server.")
        LocalObjectReference configMapRef) {}
