package dev.capstan.api.kustomize;

import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Map;

/** Variable substitution applied to the built manifests. */
public record PostBuild(Map<String, String> substitute, List<SubstituteReference> substituteFrom) {

  /** A ConfigMap or Secret in the Kustomization's namespace whose data are variables. */
  public record SubstituteReference(@Required Kind kind, @Required String name, Boolean optional) {
    /** The kinds that hold variables. */
    public enum Kind {
      ConfigMap,
      Secret
    }
  }
}
