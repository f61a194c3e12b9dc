package dev.capstan.applier.build;

import java.util.Objects;

/** An entry of {@code postBuild.substituteFrom}: a ConfigMap or Secret in the Kustomization's namespace. */
public record SubstituteReference(Kind kind, String name, boolean optional) {

  /** The kinds of object variables may come from. */
  public enum Kind {
    CONFIG_MAP("ConfigMap"),
    SECRET("Secret");

    private final String kubernetesKind;

    Kind(String kubernetesKind) {
      this.kubernetesKind = kubernetesKind;
    }

    public String kubernetesKind() {
      return kubernetesKind;
    }
  }

  public SubstituteReference {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
  }
}
