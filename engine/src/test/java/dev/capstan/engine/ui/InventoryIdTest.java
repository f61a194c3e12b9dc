package dev.capstan.engine.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class InventoryIdTest {

  @Test
  void readsNamespacedClusterScopedAndColonNames() {
    assertEquals(new InventoryTree.Id("apps", "web", "apps", "Deployment"), InventoryTree.Id.parse("apps_web_apps_Deployment"));
    assertEquals(new InventoryTree.Id("", "edit", "rbac.authorization.k8s.io", "ClusterRole"),
        InventoryTree.Id.parse("_edit_rbac.authorization.k8s.io_ClusterRole"));
    assertEquals(new InventoryTree.Id("a", "system:x", "", "ConfigMap"), InventoryTree.Id.parse("a_system__x__ConfigMap"));
  }

  @Test
  void refusesMalformedIds() {
    assertThrows(IllegalArgumentException.class, () -> InventoryTree.Id.parse("nounderscores"));
    assertThrows(IllegalArgumentException.class, () -> InventoryTree.Id.parse("a_b_"));
    assertThrows(IllegalArgumentException.class, () -> InventoryTree.Id.parse(null));
  }
}
