package dev.capstan.applier.inventory;

import dev.capstan.kube.InventoryId;
import dev.capstan.kube.ObjectRef;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The objects of one applied revision as Flux inventory entries, ordered by id: what prune compares
 * with the next revision's set. The engine keeps it on a Kustomization's status, the command line
 * in a ConfigMap.
 */
public record InventorySet(List<Entry> entries) {

  public static final InventorySet EMPTY = new InventorySet(List.of());

  public InventorySet {
    entries = entries.stream().sorted(Comparator.comparing(Entry::id)).distinct().toList();
  }

  public static InventorySet of(Collection<ObjectRef> refs) {
    return new InventorySet(refs.stream().map(Entry::of).toList());
  }

  public List<ObjectRef> refs() {
    return entries.stream().map(Entry::ref).toList();
  }

  /** Objects in this inventory that {@code next} no longer has (compared by id, any version). */
  public List<ObjectRef> staleAfter(InventorySet next) {
    Set<String> kept = next.entries.stream().map(Entry::id).collect(Collectors.toSet());
    return entries.stream().filter(e -> !kept.contains(e.id())).map(Entry::ref).toList();
  }

  /**
   * One Flux-compatible inventory entry: {@code id} is {@code namespace_name_group_kind} and {@code
   * v} the version the object was applied at.
   */
  public record Entry(String id, String v) {

    public static Entry of(ObjectRef ref) {
      return new Entry(ref.inventoryId(), ref.version());
    }

    /** Parses the id back into a ref, as {@link InventoryId} reads it. */
    public ObjectRef ref() {
      InventoryId parsed = InventoryId.parse(id);
      return new ObjectRef(parsed.group(), v, parsed.kind(), parsed.namespace(), parsed.name());
    }
  }
}
