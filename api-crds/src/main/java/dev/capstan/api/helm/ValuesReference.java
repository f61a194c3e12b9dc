package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Values read from a ConfigMap or Secret of the HelmRelease's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ValuesReference(
    @Required @JsonPropertyDescription("Secret or ConfigMap.") Kind kind,
    @Required @Size(min = 1, max = 253) @JsonPropertyDescription("Name of the object.") String name,
    @Size(max = 253)
        @Pattern("^[\\-._a-zA-Z0-9]+$")
        @JsonPropertyDescription("The data key of the values; defaults to values.yaml.")
        String valuesKey,
    @Size(max = 250)
        @Pattern("^([a-zA-Z0-9_\\-.\\\\\\/]|\\[[0-9]{1,5}\\])+$")
        @JsonPropertyDescription(
            "Dot path the key's value is set at (as helm's --set), instead of merging it as a"
                + " values file.")
        String targetPath,
    @JsonPropertyDescription(
            "With targetPath: the value is taken as a string, as helm's --set-literal.")
        Boolean literal,
    @JsonPropertyDescription("A missing object or key is left out instead of failing.")
        Boolean optional) {

  /** The default data key of values. */
  public static final String DEFAULT_KEY = "values.yaml";

  /** The kinds values come from; the constants are the API's values. */
  public enum Kind {
    Secret,
    ConfigMap
  }

  /** {@code valuesKey}, values.yaml when absent. */
  public String effectiveKey() {
    return valuesKey == null || valuesKey.isEmpty() ? DEFAULT_KEY : valuesKey;
  }

  /** {@code optional}, false when absent. */
  public boolean isOptional() {
    return Boolean.TRUE.equals(optional);
  }
}
