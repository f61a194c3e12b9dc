package dev.capstan.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;

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

  /**
   * The ref of an object served at {@code apiVersion} ({@code group/version}, or {@code version}
   * for the core group).
   */
  public static ObjectRef of(String apiVersion, String kind, String namespace, String name) {
    ApiVersion parsed = ApiVersion.of(nullToEmpty(apiVersion));
    return new ObjectRef(parsed.group(), parsed.version(), kind, namespace, name);
  }

  public static ObjectRef of(HasMetadata object) {
    var meta = object.getMetadata();
    return of(
        object.getApiVersion(),
        object.getKind(),
        meta == null ? "" : meta.getNamespace(),
        meta == null ? "" : meta.getName());
  }

  /** Reads the identity of an object; fields that are missing or not strings become empty. */
  public static ObjectRef of(Map<String, ?> object) {
    Object metadata = object.get("metadata");
    Map<?, ?> meta = metadata instanceof Map<?, ?> m ? m : Map.of();
    return of(
        text(object.get("apiVersion")),
        text(object.get("kind")),
        text(meta.get("namespace")),
        text(meta.get("name")));
  }

  public String apiVersion() {
    return new ApiVersion(group, version).toString();
  }

  /** The same object regardless of the version it is served at. */
  public ObjectRef withoutVersion() {
    return new ObjectRef(group, "", kind, namespace, name);
  }

  public ObjectRef withNamespace(String newNamespace) {
    return new ObjectRef(group, version, kind, newNamespace, name);
  }

  /** The object's kind, as kinds are matched (the version never takes part). */
  public GroupKind groupKind() {
    return new GroupKind(group, kind);
  }

  /** The Flux inventory id: {@code namespace_name_group_kind} ({@link InventoryId}). */
  public String inventoryId() {
    return InventoryId.of(this).text();
  }

  /**
   * {@code Kind/namespace/name}, or {@code Kind/name} when cluster-scoped, as Flux prints an
   * object: the form every message names an object by and the order key of aggregate messages.
   */
  public String display() {
    return namespace.isEmpty() ? kind + "/" + name : kind + "/" + namespace + "/" + name;
  }

  @Override
  public String toString() {
    return display();
  }

  private static String nullToEmpty(String value) {
    return value == null ? "" : value;
  }

  private static String text(Object value) {
    return value instanceof String s ? s : "";
  }
}
