package dev.capstan.kube;

/** An API group and kind; the version of an apiVersion never takes part in kind matching. */
public record GroupKind(String group, String kind) {

  /** The group of an apiVersion: {@code v1} is the core group (empty), {@code apps/v1} is apps. */
  public static String groupOf(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  public static GroupKind of(String apiVersion, String kind) {
    return new GroupKind(groupOf(apiVersion), kind);
  }

  /** {@code Kind.group} as Kubernetes prints a GroupKind ({@code Kind} for the core group). */
  @Override
  public String toString() {
    return group.isEmpty() ? kind : kind + "." + group;
  }
}
