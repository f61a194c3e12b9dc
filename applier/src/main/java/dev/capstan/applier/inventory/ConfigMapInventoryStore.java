package dev.capstan.applier.inventory;

import dev.capstan.applier.common.CapstanMetadata;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Arrays;
import java.util.List;

/**
 * Keeps an inventory in a ConfigMap (key {@value #KEY}, a JSON list of {@code {id, v}}), for the
 * command line where there is no Kustomization status to hold it.
 */
public record ConfigMapInventoryStore(KubernetesClient client, String namespace, String name) {

  static final String KEY = "inventory";

  public InventorySet load() {
    ConfigMap map = client.configMaps().inNamespace(namespace).withName(name).get();
    if (map == null || map.getData() == null || !map.getData().containsKey(KEY)) {
      return InventorySet.EMPTY;
    }
    return decode(map.getData().get(KEY), namespace + "/" + name);
  }

  /** Writes the inventory, skipping the write when the stored one is already equal. */
  public void save(InventorySet inventory) {
    if (load().equals(inventory)) {
      return;
    }
    ConfigMap map =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .endMetadata()
            .addToData(KEY, encode(inventory))
            .build();
    client
        .configMaps()
        .inNamespace(namespace)
        .resource(map)
        .fieldManager(CapstanMetadata.FIELD_MANAGER)
        .forceConflicts()
        .serverSideApply();
  }

  static String encode(InventorySet inventory) {
    return Serialization.asJson(inventory.entries());
  }

  static InventorySet decode(String json, String where) {
    try {
      InventorySet.Entry[] entries = Serialization.unmarshal(json, InventorySet.Entry[].class);
      return new InventorySet(List.copyOf(Arrays.asList(entries)));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "inventory ConfigMap " + where + " key '" + KEY + "' is not a JSON list of {id, v}", e);
    }
  }
}
