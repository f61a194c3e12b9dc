package dev.capstan.api.kustomize;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Map;

/** Variable substitution applied to the built manifests. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PostBuild(
    @JsonPropertyDescription("Variables and their values; they win over substituteFrom.")
        Map<String, String> substitute,
    @JsonPropertyDescription("ConfigMaps and Secrets whose data are variables; later entries win.")
        List<SubstituteReference> substituteFrom,
    @JsonPropertyDescription(
            "WithVariables (default): substitute only when there is at least one variable; Always:"
                + " also when there is none, so that defaults such as ${VAR:=x} apply.")
        SubstituteStrategy substituteStrategy) {

  /** When substitution runs. */
  public enum SubstituteStrategy {
    WithVariables,
    Always
  }

  /** True for {@code substituteStrategy: Always}. */
  public boolean substitutesAlways() {
    return substituteStrategy == SubstituteStrategy.Always;
  }

  /** A ConfigMap or Secret in the Kustomization's namespace whose data are variables. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record SubstituteReference(@Required Kind kind, @Required String name, Boolean optional) {
    /** The kinds that hold variables. */
    public enum Kind {
      ConfigMap,
      Secret
    }
  }
}
