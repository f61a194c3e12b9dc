package dev.capstan.applier.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.capstan.kube.ObjectRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class InventorySetTest {

  private static final ObjectRef CM = new ObjectRef("", "v1", "ConfigMap", "a", "one");
  private static final ObjectRef DEPLOY = new ObjectRef("apps", "v1", "Deployment", "a", "web");
  private static final ObjectRef NS = new ObjectRef("", "v1", "Namespace", "", "a");

  @Test
  void staleEntriesAreThoseMissingFromTheNextInventory() {
    InventorySet previous = InventorySet.of(List.of(CM, DEPLOY, NS));
    InventorySet next = InventorySet.of(List.of(NS, CM));
    assertEquals(List.of(DEPLOY), previous.staleAfter(next));
    assertEquals(List.of(), next.staleAfter(previous));
  }

  @Test
  void versionChangeIsNotStale() {
    InventorySet previous =
        InventorySet.of(List.of(new ObjectRef("apps", "v1beta1", "Deployment", "a", "web")));
    assertEquals(List.of(), previous.staleAfter(InventorySet.of(List.of(DEPLOY))));
  }

  @Test
  void entriesAreSortedAndDeduplicated() {
    InventorySet inventory = InventorySet.of(List.of(DEPLOY, CM, DEPLOY));
    assertEquals(
        List.of("a_one__ConfigMap", "a_web_apps_Deployment"),
        inventory.entries().stream().map(InventorySet.Entry::id).toList());
  }

  @Test
  void configMapEncodingRoundTrips() {
    InventorySet inventory = InventorySet.of(List.of(CM, DEPLOY, NS));
    String json = ConfigMapInventoryStore.encode(inventory);
    assertEquals(inventory, ConfigMapInventoryStore.decode(json, "default/inv"));
    assertEquals(true, json.contains("\"id\":\"a_web_apps_Deployment\""));
  }

  @Test
  void badStoredInventoryNamesTheConfigMap() {
    var e =
        assertThrows(
            IllegalStateException.class, () -> ConfigMapInventoryStore.decode("{", "default/inv"));
    assertEquals(true, e.getMessage().contains("default/inv"));
    assertThrows(
        IllegalArgumentException.class, () -> new InventorySet.Entry("no-underscores", "v1").ref());
  }
}
