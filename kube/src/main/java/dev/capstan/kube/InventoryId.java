package dev.capstan.kube;

/**
 * One inventory id, {@code namespace_name_group_kind}: the namespace is empty for cluster-scoped
 * objects and the group for the core group. Namespaces, groups and kinds never contain an
 * underscore, so the first and the last two separate the parts; a colon in a name may be written
 * {@code __}, as Flux writes it, and reads back as a colon. The one reader and writer of inventory
 * ids.
 */
public record InventoryId(String namespace, String name, String group, String kind) {

  /**
   * Parses an id.
   *
   * @throws IllegalArgumentException naming the id when it has fewer than four parts
   */
  public static InventoryId parse(String id) {
    if (id == null) {
      throw new IllegalArgumentException("inventory entry without an id");
    }
    int first = id.indexOf('_');
    int last = id.lastIndexOf('_');
    int beforeLast = last <= 0 ? -1 : id.lastIndexOf('_', last - 1);
    if (first < 0 || beforeLast <= first || last == id.length() - 1) {
      throw new IllegalArgumentException(
          "inventory id \"" + id + "\" is not of the form namespace_name_group_kind");
    }
    String name = id.substring(first + 1, beforeLast).replace("__", ":");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("inventory id \"" + id + "\" has no name");
    }
    return new InventoryId(
        id.substring(0, first), name, id.substring(beforeLast + 1, last), id.substring(last + 1));
  }

  /** The id of {@code ref}; its version is not part of it. */
  public static InventoryId of(ObjectRef ref) {
    return new InventoryId(ref.namespace(), ref.name(), ref.group(), ref.kind());
  }

  /** The id as an inventory holds it. */
  public String text() {
    return namespace + "_" + name + "_" + group + "_" + kind;
  }

  /** The apiVersion for version {@code v} of this id's group. */
  public String apiVersion(String version) {
    return new ApiVersion(group, version).toString();
  }

  public boolean clusterScoped() {
    return namespace.isEmpty();
  }
}
