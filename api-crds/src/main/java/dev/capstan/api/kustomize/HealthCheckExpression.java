package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * CEL expressions that decide the health of every object of one API group and kind, or of every
 * kind of the group when {@code kind} is left out (an entry with a kind wins over that).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HealthCheckExpression(
    @Required
        @JsonPropertyDescription(
            "API version of the objects; only its group counts, so the entry applies to every"
                + " version of the group.")
        String apiVersion,
    @JsonPropertyDescription(
            "Kind of the objects. Leave it out for one entry for every kind of the group; an entry"
                + " with a kind wins over it for that kind.")
        String kind,
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
   * status --exprs} is bounded the same way, and so is its built-in library, whose entries are
   * compiled under the same limit (the longest has 1,181 characters).
   */
  public static final int MAX_EXPRESSION_LENGTH = 4_096;
}
