package dev.capstan.cli.migrate;

import dev.capstan.applier.apply.ManagedFieldsTakeover;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hands the fields one field manager owns on an inventory's objects to another, as the API server
 * lets a client set {@code metadata.managedFields}: the entries of {@code from} are merged into the
 * Apply entry of {@code to}, in a JSON patch guarded by the object's resourceVersion. The new owner
 * then owns them alone: its next apply neither conflicts nor leaves behind a field the old one set
 * and it no longer applies (such as Flux's own labels), and no object is deleted or re-created.
 */
final class OwnershipTransfer {

  private static final int ATTEMPTS = 5;

  private final KubernetesClient client;

  OwnershipTransfer(KubernetesClient client) {
    this.client = client;
  }

  /** Transfers the fields on every object of {@code inventory}; returns how many changed. */
  int transfer(List<?> inventory, String from, String to) {
    int changed = 0;
    for (Object item : inventory) {
      Map<?, ?> entry = Manifest.map(item);
      ObjectRef ref =
          new InventorySet.Entry(String.valueOf(entry.get("id")), String.valueOf(entry.get("v")))
              .ref();
      if (transfer(ref, from, to)) {
        changed++;
      }
    }
    return changed;
  }

  private boolean transfer(ObjectRef ref, String from, String to) {
    Resource<GenericKubernetesResource> resource = resource(ref);
    for (int attempt = 1; ; attempt++) {
      GenericKubernetesResource live = resource.get();
      if (live == null) {
        return false; // gone already: nothing to hand over
      }
      Optional<List<ManagedFieldsEntry>> entries =
          ManagedFieldsTakeover.transfer(live.getMetadata().getManagedFields(), from, to);
      if (entries.isEmpty()) {
        return false;
      }
      List<Map<String, Object>> patch =
          ManagedFieldsTakeover.guardedReplacement(
              live.getMetadata().getResourceVersion(), entries.get());
      try {
        resource.patch(
            PatchContext.of(PatchType.JSON), client.getKubernetesSerialization().asJson(patch));
        return true;
      } catch (KubernetesClientException e) {
        boolean changedMeanwhile = e.getCode() == 409 || e.getCode() == 422;
        if (!changedMeanwhile || attempt >= ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private Resource<GenericKubernetesResource> resource(ObjectRef ref) {
    var resources = client.genericKubernetesResources(ref.apiVersion(), ref.kind());
    return ref.namespace() == null || ref.namespace().isEmpty()
        ? resources.withName(ref.name())
        : resources.inNamespace(ref.namespace()).withName(ref.name());
  }
}
