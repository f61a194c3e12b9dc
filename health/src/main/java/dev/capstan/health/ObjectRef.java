package dev.capstan.health;

import java.util.Map;

/** The identity of an object: apiVersion, kind, namespace (empty if cluster-scoped) and name. */
public record ObjectRef(String apiVersion, String kind, String namespace, String name) {

  public ObjectRef {
    apiVersion = apiVersion == null ? "" : apiVersion;
    kind = kind == null ? "" : kind;
    namespace = namespace == null ? "" : namespace;
    name = name == null ? "" : name;
  }

  /** Reads the identity of an object; fields that are missing or not strings become empty. */
  public static ObjectRef of(Map<String, ?> object) {
    Object metadata = object.get("metadata");
    Map<?, ?> meta = metadata instanceof Map<?, ?> m ? m : Map.of();
    return new ObjectRef(
        text(object.get("apiVersion")),
        text(object.get("kind")),
        text(meta.get("namespace")),
        text(meta.get("name")));
  }

  /** {@code Kind/namespace/name}, the order key and display form used in aggregate messages. */
  public String display() {
    return kind + "/" + namespace + "/" + name;
  }

  private static String text(Object value) {
    return value instanceof String s ? s : "";
  }
}
