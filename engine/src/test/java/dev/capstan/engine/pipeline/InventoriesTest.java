package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.kube.ObjectRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InventoriesTest {

  @Test
  void anObjectInBothKeepsTheNewerVersion() {
    ObjectRef older = new ObjectRef("apps", "v1beta1", "Deployment", "team", "web");
    ObjectRef newer = new ObjectRef("apps", "v1", "Deployment", "team", "web");
    ObjectRef onlyOld = new ObjectRef("", "v1", "ConfigMap", "team", "old");
    InventorySet union =
        Inventories.union(InventorySet.of(List.of(older, onlyOld)), List.of(newer));
    assertEquals(Set.of(newer, onlyOld), Set.copyOf(union.refs()));
  }

  @Test
  void theUnionOfLargeInventoriesHasEveryObjectOnce() {
    int size = 60_000; // a List.contains per object would take minutes here
    List<ObjectRef> older = new ArrayList<>();
    List<ObjectRef> newer = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      older.add(configMap(i, "v1"));
      newer.add(configMap(i + size / 2, "v2")); // half overlaps the older ones
    }
    InventorySet union = Inventories.union(InventorySet.of(older), newer);

    Set<ObjectRef> expected = new HashSet<>(newer);
    for (int i = 0; i < size / 2; i++) {
      expected.add(configMap(i, "v1"));
    }
    assertEquals(size + size / 2, union.refs().size());
    assertEquals(expected, new HashSet<>(union.refs()));
  }

  private static ObjectRef configMap(int i, String version) {
    return new ObjectRef("", version, "ConfigMap", "team", "cm-" + i);
  }
}
