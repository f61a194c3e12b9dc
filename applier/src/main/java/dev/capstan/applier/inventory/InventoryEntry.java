package dev.capstan.applier.inventory;

import dev.capstan.health.ObjectRef;

/**
 * One Flux-compatible inventory entry: {@code id} is {@code namespace_name_group_kind} and
 * {@code v} the version the object was applied at.
 */
public record InventoryEntry(String id, String v) {

  public static InventoryEntry of(ObjectRef ref) {
    return new InventoryEntry(ref.inventoryId(), ref.version());
  }

  /**
   * Parses the id back into a ref. Names, namespaces, groups and kinds never contain
   * underscores, so the four parts are unambiguous.
   */
  public ObjectRef ref() {
    String[] parts = id.split("_", -1);
    if (parts.length != 4 || parts[1].isEmpty() || parts[3].isEmpty()) {
      throw new IllegalArgumentException(
          "inventory entry id '" + id + "' is not of the form namespace_name_group_kind");
    }
    return new ObjectRef(parts[2], v, parts[3], parts[0], parts[1]);
  }
}
