package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/** What happens after a failed install or upgrade: remediate, or retry at an interval. */
@ValidationRule(
    value = "!has(self.retryInterval) || self.name == 'RetryOnFailure'",
    message = ".retryInterval can only be set when .name is 'RetryOnFailure'")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ActionStrategy(
    @Required @JsonPropertyDescription("RemediateOnFailure (the default) or RetryOnFailure.")
        Name name,
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How soon a failed action is retried (RetryOnFailure); 5m.")
        String retryInterval) {

  /** The strategies; the constants are the API's values. */
  public enum Name {
    RemediateOnFailure,
    RetryOnFailure
  }
}
