package dev.capstan.kube;

/** An API group and kind; the version of an apiVersion never takes part in kind matching. */
public record GroupKind(String group, String kind) {

  /** The group and kind of an object served at {@code apiVersion}. */
  public static GroupKind of(String apiVersion, String kind) {
    return new GroupKind(ApiVersion.of(apiVersion).group(), kind);
  }

  /** {@code Kind.group} as Kubernetes prints a GroupKind ({@code Kind} for the core group). */
  @Override
  public String toString() {
    return group.isEmpty() ? kind : kind + "." + group;
  }
}
