package dev.capstan.cli.faults;

import dev.capstan.cli.faults.FaultObservation.Deletion;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every deletion of an applied ConfigMap of a namespace, from a watch (an informer: a deletion it
 * missed while its watch was down comes as a final state unknown when it lists again), with the
 * time it was seen.
 */
final class DeletionRecorder implements AutoCloseable {
  private final List<Deletion> deletions = new CopyOnWriteArrayList<>();
  private final SharedIndexInformer<ConfigMap> informer;

  DeletionRecorder(KubernetesClient client, String namespace, String ownerLabel) {
    this.informer =
        client
            .configMaps()
            .inNamespace(namespace)
            .withLabel(ownerLabel)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(ConfigMap object) {}

                  @Override
                  public void onUpdate(ConfigMap older, ConfigMap newer) {}

                  @Override
                  public void onDelete(ConfigMap object, boolean finalStateUnknown) {
                    deletions.add(new Deletion(object.getMetadata().getName(), Instant.now()));
                  }
                },
                0);
  }

  List<Deletion> deletions() {
    return List.copyOf(deletions);
  }

  @Override
  public void close() {
    informer.close();
  }
}
