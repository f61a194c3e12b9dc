package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.health.ObjectRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Converts between the inventory on a Kustomization's status and the applier's. */
final class Inventories {
  private Inventories() {}

  static dev.capstan.applier.inventory.Inventory toApplier(Inventory inventory) {
    if (inventory == null || inventory.entries() == null) {
      return dev.capstan.applier.inventory.Inventory.EMPTY;
    }
    return new dev.capstan.applier.inventory.Inventory(
        inventory.entries().stream()
            .map(e -> new dev.capstan.applier.inventory.InventoryEntry(e.id(), e.v()))
            .toList());
  }

  static Inventory toStatus(dev.capstan.applier.inventory.Inventory inventory) {
    return new Inventory(
        inventory.entries().stream().map(e -> new InventoryEntry(e.id(), e.v())).toList());
  }

  /** The union of two inventories; an object in both keeps the version of {@code newer}. */
  static dev.capstan.applier.inventory.Inventory union(
      dev.capstan.applier.inventory.Inventory older, Collection<ObjectRef> newer) {
    List<ObjectRef> refs = new ArrayList<>(newer);
    List<String> ids = newer.stream().map(ObjectRef::inventoryId).toList();
    older.refs().stream().filter(r -> !ids.contains(r.inventoryId())).forEach(refs::add);
    return dev.capstan.applier.inventory.Inventory.of(refs);
  }
}
