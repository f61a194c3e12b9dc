package dev.capstan.api.helm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/** Whether and how the chart's Helm tests run after an install or upgrade (Flux's Test). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReleaseTest(
    @JsonPropertyDescription("Run the tests.") Boolean enable,
    @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("Time for each test; spec.timeout when absent.")
        String timeout,
    @JsonPropertyDescription("Do not remediate when only the tests failed.") Boolean ignoreFailures,
    @JsonPropertyDescription("Tests to run or leave out, by name.") List<Filter> filters) {

  /** One test, run or left out. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Filter(
      @Required @Size(min = 1, max = 253) @JsonPropertyDescription("The test's name.") String name,
      @JsonPropertyDescription("Leave this test out.") Boolean exclude) {}
}
