package dev.capstan.cli.faults;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether a watch on the namespace's applied ConfigMaps from an old resourceVersion is answered 410
 * Gone, as it must be after an etcd compaction and a restart of the API server.
 */
final class RelistProbe {
  private final KubernetesClient admin;
  private final String namespace;

  RelistProbe(KubernetesClient admin, String namespace) {
    this.admin = admin;
    this.namespace = namespace;
  }

  /** The resourceVersion of the namespace's applied ConfigMaps as listed now. */
  String listResourceVersion() {
    return admin
        .configMaps()
        .inNamespace(namespace)
        .withLabel(FaultCluster.OWNER_LABEL)
        .list()
        .getMetadata()
        .getResourceVersion();
  }

  /**
   * Whether a watch from {@code resourceVersion} is answered 410 Gone (within 30 s), as every watch
   * resumed from before an etcd compaction and a restart of the API server should be.
   */
  boolean watchFromIsGone(String resourceVersion) throws InterruptedException {
    CompletableFuture<Boolean> gone = new CompletableFuture<>();
    try (Watch watch =
        admin
            .configMaps()
            .inNamespace(namespace)
            .withLabel(FaultCluster.OWNER_LABEL)
            .withResourceVersion(resourceVersion)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap object) {}

                  @Override
                  public void onClose(WatcherException cause) {
                    gone.complete(cause.isHttpGone());
                  }
                })) {
      return gone.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      return false;
    } catch (KubernetesClientException e) {
      return e.getCode() == 410;
    }
  }
}
