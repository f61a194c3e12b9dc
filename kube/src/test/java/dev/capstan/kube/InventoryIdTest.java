package dev.capstan.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class InventoryIdTest {

  @Test
  void readsNamespacedObjectsOfNamedGroups() {
    InventoryId id = InventoryId.parse("demo_web_apps_Deployment");
    assertEquals(new InventoryId("demo", "web", "apps", "Deployment"), id);
    assertEquals("apps/v1", id.apiVersion("v1"));
  }

  @Test
  void readsClusterScopedObjectsOfTheCoreGroup() {
    InventoryId id = InventoryId.parse("_demo__Namespace");
    assertEquals(new InventoryId("", "demo", "", "Namespace"), id);
    assertTrue(id.clusterScoped());
    assertEquals("v1", id.apiVersion("v1"));
  }

  @Test
  void readsColonsInNamesWrittenAsDoubleUnderscores() {
    InventoryId id = InventoryId.parse("_system__capstan_rbac.authorization.k8s.io_ClusterRole");
    assertEquals("system:capstan", id.name());
    assertEquals("rbac.authorization.k8s.io", id.group());
    assertEquals(new InventoryId("ns", "a:b", "", "Role"), InventoryId.parse("ns_a__b__Role"));
  }

  @Test
  void namesTheIdThatIsMalformed() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> InventoryId.parse("demo_web"));
    assertTrue(e.getMessage().contains("\"demo_web\""), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> InventoryId.parse("ns__apps_Deployment"));
    assertThrows(IllegalArgumentException.class, () -> InventoryId.parse("ns_web_apps_"));
    assertThrows(IllegalArgumentException.class, () -> InventoryId.parse("nounderscores"));
    assertThrows(IllegalArgumentException.class, () -> InventoryId.parse("a_b_"));
    assertThrows(IllegalArgumentException.class, () -> InventoryId.parse(null));
  }

  @Test
  void writesWhatItReadsForEveryKindOfObject() {
    for (ObjectRef ref :
        List.of(
            new ObjectRef("apps", "v1", "Deployment", "demo", "web"),
            new ObjectRef("", "v1", "Namespace", "", "demo"),
            new ObjectRef("rbac.authorization.k8s.io", "v1", "ClusterRole", "", "view"))) {
      String text = ref.inventoryId();
      assertEquals(InventoryId.of(ref), InventoryId.parse(text), text);
    }
  }
}
