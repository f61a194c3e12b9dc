package dev.capstan.applier.apply;

import dev.capstan.applier.common.Polling;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * What every verb of the resource manager acts with: the client, the executor that bounds its
 * requests in flight, the polling of its waits, the discovery answers it keeps, and the server-side
 * apply calls made with the client. One value, so that the verbs are built from the same parts and
 * another one is added in one place.
 */
public record ClusterAccess(
    KubernetesClient client,
    Executor executor,
    Polling polling,
    KeptDiscovery discovery,
    ServerSideApply calls) {

  public ClusterAccess(
      KubernetesClient client, Executor executor, Polling polling, KeptDiscovery discovery) {
    this(client, executor, polling, discovery, new ServerSideApply(client));
  }

  /** Finds the kinds of a revision through the kept discovery, asking the server for the rest. */
  public ResourceCatalog catalog() {
    return new ResourceCatalog(client, Optional.of(discovery));
  }
}
