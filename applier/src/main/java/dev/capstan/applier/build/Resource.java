package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One object travelling through a build. Transformers change it in place (a build owns its
 * resources); it remembers every name it had so references to old names can be rewritten.
 */
final class Resource {
  private final Map<String, Object> object;
  private final Origin origin;
  private final List<String> previousNames = new ArrayList<>();
  private boolean hashSuffix;

  Resource(Map<String, Object> object, Origin origin) {
    this.object = object;
    this.origin = origin;
  }

  Map<String, Object> object() {
    return object;
  }

  Origin origin() {
    return origin;
  }

  String apiVersion() {
    return nonNull(ObjectTree.string(object, "apiVersion"));
  }

  String kind() {
    return nonNull(ObjectTree.string(object, "kind"));
  }

  String group() {
    String apiVersion = apiVersion();
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  String version() {
    String apiVersion = apiVersion();
    return apiVersion.substring(apiVersion.indexOf('/') + 1);
  }

  String name() {
    return nonNull(ObjectTree.string(object, "metadata", "name"));
  }

  String namespace() {
    return nonNull(ObjectTree.string(object, "metadata", "namespace"));
  }

  /** Renames the object, remembering the old name for reference rewriting and patch targets. */
  void rename(String newName) {
    String old = name();
    if (!old.equals(newName)) {
      previousNames.add(old);
      ObjectTree.mapAt(object, "metadata").put("name", newName);
    }
  }

  void setNamespace(String namespace) {
    ObjectTree.mapAt(object, "metadata").put("namespace", namespace);
  }

  /** The current name and every earlier one, oldest last. */
  List<String> allNames() {
    List<String> names = new ArrayList<>();
    names.add(name());
    for (int i = previousNames.size() - 1; i >= 0; i--) {
      names.add(previousNames.get(i));
    }
    return names;
  }

  boolean hadName(String candidate) {
    return name().equals(candidate) || previousNames.contains(candidate);
  }

  boolean hashSuffix() {
    return hashSuffix;
  }

  void setHashSuffix(boolean value) {
    this.hashSuffix = value;
  }

  Map<String, Object> labels() {
    return ObjectTree.map(ObjectTree.get(object, "metadata", "labels"));
  }

  Map<String, Object> annotations() {
    return ObjectTree.map(ObjectTree.get(object, "metadata", "annotations"));
  }

  /** group/kind/namespace/name: what must be unique within one build. */
  String identity() {
    return group() + "/" + kind() + "/" + namespace() + "/" + name();
  }

  /** {@code Kind/namespace/name} or {@code Kind/name}, for messages. */
  String describe() {
    return kind() + "/" + (namespace().isEmpty() ? "" : namespace() + "/") + name();
  }

  /** A copy that shares nothing with this one, used when one base is included twice. */
  Resource copy() {
    Resource copy = new Resource(ObjectTree.stringKeyed(object, origin), origin);
    copy.previousNames.addAll(previousNames);
    copy.hashSuffix = hashSuffix;
    return copy;
  }

  Map<String, Object> copyOfObject() {
    return new LinkedHashMap<>(ObjectTree.stringKeyed(object, origin));
  }

  private static String nonNull(String value) {
    return value == null ? "" : value;
  }
}
