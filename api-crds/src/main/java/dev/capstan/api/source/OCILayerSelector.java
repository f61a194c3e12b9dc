package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/** Which layer of an OCI artifact becomes the artifact, and how. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OCILayerSelector(
    @JsonPropertyDescription("The media type of the layer; the first layer of this type is used.")
        String mediaType,
    @Pattern("^(extract|copy)$")
        @JsonPropertyDescription(
            "extract (the default) unpacks the tar+gzip layer; copy stores it as it is.")
        String operation) {

  /** Whether the layer is stored as it is rather than unpacked. */
  public boolean copies() {
    return "copy".equals(operation);
  }
}
