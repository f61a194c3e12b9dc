package dev.capstan.applier;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Identity of one Kubernetes object: group, version, kind, namespace ("" when cluster-scoped) and
 * name. Two refs that differ only in version name the same object.
 */
public record ObjectRef(String group, String version, String kind, String namespace, String name) {

  public ObjectRef {
    group = nullToEmpty(group);
    version = nullToEmpty(version);
    kind = nullToEmpty(kind);
    namespace = nullToEmpty(namespace);
    name = nullToEmpty(name);
  }

  public static ObjectRef of(HasMetadata object) {
    String apiVersion = nullToEmpty(object.getApiVersion());
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    var meta = object.getMetadata();
    return new ObjectRef(
        group,
        version,
        object.getKind(),
        meta == null ? "" : meta.getNamespace(),
        meta == null ? "" : meta.getName());
  }

  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** The same object regardless of the version it is served at. */
  public ObjectRef withoutVersion() {
    return new ObjectRef(group, "", kind, namespace, name);
  }

  public ObjectRef withNamespace(String newNamespace) {
    return new ObjectRef(group, version, kind, newNamespace, name);
  }

  /** The Flux inventory id: {@code namespace_name_group_kind}. */
  public String inventoryId() {
    return namespace + "_" + name + "_" + group + "_" + kind;
  }

  /** {@code Kind/namespace/name}, or {@code Kind/name} when cluster-scoped. */
  @Override
  public String toString() {
    return namespace.isEmpty() ? kind + "/" + name : kind + "/" + namespace + "/" + name;
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }
}
