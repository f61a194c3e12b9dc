package dev.capstan.cli.objects;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.cli.cluster.CliException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asks the controller for a reconcile (a {@link ReconcileRequest}), then waits with a watch until
 * {@code status.lastHandledReconcileAt} echoes it and the object has settled.
 */
final class ReconcileWaiter {

  private final CapstanResources resources;
  private final Clock clock;
  private final PrintWriter out;

  ReconcileWaiter(CapstanResources resources, Clock clock, PrintWriter out) {
    this.resources = resources;
    this.clock = clock;
    this.out = out;
  }

  /** A request made now. */
  ReconcileRequest newRequest() {
    return ReconcileRequest.at(clock);
  }

  /**
   * Applies {@code patch} (which must carry {@code request}) and waits for the outcome; {@code
   * action} says what the patch does, for the progress line.
   */
  <T extends HasMetadata> ReconcileReport patchAndWait(
      CapstanKind<T> kind,
      String namespace,
      String name,
      Map<String, Object> patch,
      ReconcileRequest request,
      Duration timeout,
      String action) {
    out.println(action + " " + kind.kind() + " " + name + " in namespace " + namespace);
    out.flush();
    resources.mergePatch(kind, namespace, name, patch);
    out.println("waiting for " + kind.kind() + " " + name + " to be reconciled");
    out.flush();
    ResourceView done = await(kind, namespace, name, request, timeout);
    return ReconcileReport.of(done);
  }

  /** Makes a new request and waits for its outcome. */
  <T extends HasMetadata> ReconcileReport requestAndWait(
      CapstanKind<T> kind, String namespace, String name, Duration timeout) {
    ReconcileRequest request = newRequest();
    return patchAndWait(
        kind, namespace, name, request.mergePatch(), request, timeout, "annotating");
  }

  private <T extends HasMetadata> ResourceView await(
      CapstanKind<T> kind,
      String namespace,
      String name,
      ReconcileRequest request,
      Duration timeout) {
    AtomicReference<ResourceView> last = new AtomicReference<>();
    try {
      T object =
          resources
              .resource(kind, namespace, name)
              .waitUntilCondition(
                  o -> {
                    ResourceView view = o == null ? null : kind.view(o);
                    last.set(view);
                    return ReconcileReport.finished(view, request);
                  },
                  timeout.toMillis(),
                  TimeUnit.MILLISECONDS);
      return kind.view(object);
    } catch (KubernetesClientTimeoutException e) {
      throw new CliException(
          ReconcileReport.timedOut(
              last.get(), request, timeout, kind.kind() + " " + namespace + "/" + name));
    }
  }
}
