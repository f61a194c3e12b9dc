package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Inventory;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.kube.ObjectRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Converts between the inventory on a Kustomization's or HelmRelease's status and the applier's.
 */
public final class Inventories {
  private Inventories() {}

  public static InventorySet toApplier(Inventory inventory) {
    if (inventory == null || inventory.entries() == null) {
      return InventorySet.EMPTY;
    }
    return new InventorySet(
        inventory.entries().stream().map(e -> new InventorySet.Entry(e.id(), e.v())).toList());
  }

  public static Inventory toStatus(InventorySet inventory) {
    return new Inventory(
        inventory.entries().stream().map(e -> new InventoryEntry(e.id(), e.v())).toList());
  }

  /** The union of two inventories; an object in both keeps the version of {@code newer}. */
  public static InventorySet union(InventorySet older, Collection<ObjectRef> newer) {
    List<ObjectRef> refs = new ArrayList<>(newer);
    Set<String> ids = newer.stream().map(ObjectRef::inventoryId).collect(Collectors.toSet());
    older.refs().stream().filter(r -> !ids.contains(r.inventoryId())).forEach(refs::add);
    return InventorySet.of(refs);
  }
}
