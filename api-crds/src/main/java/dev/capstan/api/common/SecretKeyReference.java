package dev.capstan.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A Secret in the same namespace, and optionally one key of its data. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SecretKeyReference(
    @Required @Size(min = 1, max = 253) @JsonPropertyDescription("Name of the Secret.") String name,
    @Size(min = 1, max = 253) @JsonPropertyDescription("Key of the Secret's data to read.")
        String key) {}
