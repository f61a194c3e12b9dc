package dev.capstan.engine.shard;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The label that says which replica owns a Kustomization, written by its owner when it starts to
 * reconcile it (once per handoff, not per reconcile): {@code kubectl get ks -o wide} shows it as
 * REPLICA, and label-selected informers can follow it.
 */
final class ReplicaLabel {
  static final String LABEL = ShardOptions.REPLICA_LABEL;
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaLabel.class);

  private final KubernetesClient client;
  private final String replica;

  ReplicaLabel(KubernetesClient client, String replica) {
    this.client = client;
    this.replica = replica;
  }

  /** Labels {@code object} with this replica unless it already is. */
  void mark(HasMetadata object) {
    Map<String, String> labels =
        Optional.ofNullable(object.getMetadata().getLabels()).orElse(Map.of());
    if (replica.equals(labels.get(LABEL))) {
      return;
    }
    try {
      client
          .resource(object)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"labels\":{\"" + LABEL + "\":\"" + replica + "\"}}}");
    } catch (KubernetesClientException e) {
      // only a view of ownership: the reconcile goes on, the next one tries again
      LOG.debug(
          "could not label {} with its replica: HTTP {}",
          object.getMetadata().getName(),
          e.getCode());
    }
  }
}
