package dev.capstan.applier.cli;

import dev.capstan.applier.cli.ManifestSource.ManifestException;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * What {@code apply} and {@code diff} share: DIR is loaded while the cluster connection opens (both
 * take a while), then the command's work runs with the client and a worker pool, and cluster errors
 * become one line.
 */
final class ClusterSession {
  /** Exit code for a directory that cannot be loaded. */
  static final int BAD_INPUT = 2;

  /** The command's own work, once the objects are loaded and the client is connected. */
  interface Work {
    int run(KubernetesClient client, List<GenericKubernetesResource> objects, ExecutorService pool);
  }

  private ClusterSession() {}

  static int run(
      ManifestSource source,
      ManifestOptions files,
      ClusterOptions cluster,
      int concurrency,
      PrintWriter err,
      int clusterErrorExit,
      Work work) {
    CompletableFuture<KubernetesClient> connecting = ClusterConnection.openInBackground(cluster);
    List<GenericKubernetesResource> objects;
    try {
      objects = source.load(files.directory, files.buildRoot());
    } catch (ManifestException e) {
      ClusterConnection.discard(connecting);
      err.println("error: " + e.getMessage());
      return BAD_INPUT;
    }
    KubernetesClient client;
    try {
      client = ClusterConnection.await(connecting);
    } catch (KubeconfigProblem e) {
      err.println("error: " + e.getMessage());
      return clusterErrorExit;
    } catch (KubernetesClientException e) {
      err.println("error: " + ClusterErrors.describe(e, ClusterConnection.serverOf(e)));
      return clusterErrorExit;
    }
    ExecutorService pool = WorkerPool.of(concurrency);
    try (client) {
      return work.run(client, objects, pool);
    } catch (KubernetesClientException e) {
      err.println("error: " + ClusterErrors.describe(e, client.getMasterUrl()));
      return clusterErrorExit;
    } catch (RuntimeException e) {
      // a defect, not the user's input: still one line, as every other failure
      err.println("error: unexpected failure: " + e.toString().lines().findFirst().orElse(""));
      return clusterErrorExit;
    } finally {
      pool.shutdownNow();
    }
  }
}
