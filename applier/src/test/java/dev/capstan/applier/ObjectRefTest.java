package dev.capstan.applier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.kube.ObjectRef;
import org.junit.jupiter.api.Test;

class ObjectRefTest {

  @Test
  void inventoryIdFollowsFluxFormat() {
    ObjectRef deployment =
        ObjectRef.of(
            TestObjects.yaml(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"));
    assertEquals("shop_web_apps_Deployment", deployment.inventoryId());
    ObjectRef namespace =
        ObjectRef.of(TestObjects.yaml("apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n"));
    assertEquals("_shop__Namespace", namespace.inventoryId());
    assertEquals(
        new InventorySet.Entry("_shop__Namespace", "v1"), InventorySet.Entry.of(namespace));
  }

  @Test
  void entryParsesBackToRef() {
    ObjectRef ref = new InventorySet.Entry("shop_web_apps_Deployment", "v1").ref();
    assertEquals(new ObjectRef("apps", "v1", "Deployment", "shop", "web"), ref);
    assertEquals("apps/v1", ref.apiVersion());
    assertEquals("Deployment/shop/web", ref.toString());
    assertEquals("v1", new InventorySet.Entry("_shop__Namespace", "v1").ref().apiVersion());
  }
}
