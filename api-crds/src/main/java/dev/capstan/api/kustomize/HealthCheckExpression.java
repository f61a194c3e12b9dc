package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** CEL expressions that decide the health of every object of one apiVersion and kind. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HealthCheckExpression(
    @Required String apiVersion,
    @Required String kind,
    @Required
        @Size(max = MAX_EXPRESSION_LENGTH)
        @JsonPropertyDescription("CEL expression that is true when the object is healthy.")
        String current,
    @Size(max = MAX_EXPRESSION_LENGTH)
        @JsonPropertyDescription("CEL expression that is true while the object is progressing.")
        String inProgress,
    @Size(max = MAX_EXPRESSION_LENGTH)
        @JsonPropertyDescription("CEL expression that is true when the object has failed.")
        String failed) {

  /**
   * Longest CEL expression accepted, in characters (code points), in every CEL field of the API.
   * The health module refuses longer expressions when it compiles them, so that {@code capstan
   * status --exprs} is bounded the same way; the longest expression of its built-in library has 620
   * characters.
   */
  public static final int MAX_EXPRESSION_LENGTH = 4_096;
}
