package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Map;

/**
 * Flux's access control list of a source: the namespaces allowed to refer to it. Accepted as Flux
 * accepts it; neither Flux nor Capstan enforces it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AccessFrom(
    @Required
        @JsonPropertyDescription("Namespace selectors; any one matching allows the reference.")
        List<NamespaceSelector> namespaceSelectors) {

  /** Namespaces by their labels. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record NamespaceSelector(
      @JsonPropertyDescription("Labels a namespace must all have.")
          Map<String, String> matchLabels) {}
}
