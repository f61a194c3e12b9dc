package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * Fields the engine leaves out of drift detection and of the apply, for the objects a target
 * selects (Flux's {@code spec.ignore} entry).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record IgnoreRule(
    @Required
        @Size(min = 1, max = 64)
        @JsonPropertyDescription(
            "JSON Pointers (RFC 6901) of the fields to leave out, e.g. /spec/replicas; a '/' in a"
                + " key is written ~1 and a '~' as ~0, and a number is an index of a list as the"
                + " manifest writes it. A change of these fields by another writer is neither"
                + " reported as drift nor reverted.")
        List<String> paths,
    @JsonPropertyDescription(
            "The objects the rule applies to (every given field must match; group, version, kind,"
                + " name and namespace are regular expressions matched in full); every object of"
                + " the Kustomization when absent.")
        Patch.Selector target) {}
