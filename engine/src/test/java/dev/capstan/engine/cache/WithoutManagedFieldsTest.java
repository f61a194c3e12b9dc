package dev.capstan.engine.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

class WithoutManagedFieldsTest {

  private final WithoutManagedFields<ConfigMap> store = new WithoutManagedFields<>();

  private static ConfigMap configMap(String namespace, String name) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .withResourceVersion("7")
        .addNewManagedField()
        .withManager("capstan")
        .withOperation("Apply")
        .endManagedField()
        .endMetadata()
        .addToData("key", "value")
        .build();
  }

  @Test
  void keepsEverythingButManagedFields() {
    ConfigMap object = configMap("team", "settings");
    store.put(store.getKey(object), object);
    ConfigMap kept = store.get("team/settings");
    assertNull(kept.getMetadata().getManagedFields());
    assertEquals("7", kept.getMetadata().getResourceVersion());
    assertEquals("value", kept.getData().get("key"));
  }

  @Test
  void keysLikeTheInformersDefaultStore() {
    ConfigMap object = configMap("team", "settings");
    assertEquals("team/settings", store.getKey(object));
    store.put("team/settings", object);
    assertEquals(1, store.size());
    assertSame(object, store.remove("team/settings"));
    assertEquals(0, store.size());
  }
}
