package dev.capstan.applier.inventory;

import dev.capstan.health.ObjectRef;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** The set of objects one Kustomization applied, ordered by id. */
public record Inventory(List<InventoryEntry> entries) {

  public static final Inventory EMPTY = new Inventory(List.of());

  public Inventory {
    entries =
        entries.stream()
            .sorted(Comparator.comparing(InventoryEntry::id))
            .distinct()
            .toList();
  }

  public static Inventory of(Collection<ObjectRef> refs) {
    return new Inventory(refs.stream().map(InventoryEntry::of).toList());
  }

  public List<ObjectRef> refs() {
    return entries.stream().map(InventoryEntry::ref).toList();
  }

  /** Objects in this inventory that {@code next} no longer has (compared by id, any version). */
  public List<ObjectRef> staleAfter(Inventory next) {
    Set<String> kept = next.entries.stream().map(InventoryEntry::id).collect(Collectors.toSet());
    return entries.stream().filter(e -> !kept.contains(e.id())).map(InventoryEntry::ref).toList();
  }
}
