package dev.capstan.engine.cli;

import dev.capstan.api.common.ReconcileRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asks the controller for a reconcile by setting the annotation {@value #REQUESTED_AT} to the
 * current time, then waits (with a watch) until {@code status.lastHandledReconcileAt} echoes it.
 */
final class ReconcileRequester {
  static final String REQUESTED_AT = ReconcileRequest.ANNOTATION;

  private final CapstanResources resources;
  private final Clock clock;
  private final PrintWriter out;

  ReconcileRequester(CapstanResources resources, Clock clock, PrintWriter out) {
    this.resources = resources;
    this.clock = clock;
    this.out = out;
  }

  /** A merge patch that sets the request annotation to {@code token}. */
  static Map<String, Object> requestPatch(String token) {
    Map<String, Object> patch = new HashMap<>();
    patch.put("metadata", Map.of("annotations", Map.of(REQUESTED_AT, token)));
    return patch;
  }

  /** A fresh token: the time of the request, as the annotation value. */
  String newToken() {
    return clock.instant().toString();
  }

  /**
   * Applies {@code patch} (which must carry the request for {@code token}) and waits for the
   * outcome; {@code action} says what the patch does, for the progress line.
   */
  <T extends HasMetadata> ReconcileOutcome requestAndWait(CapstanKind<T> kind, String namespace,
      String name, Map<String, Object> patch, String token, Duration timeout, String action) {
    out.println(action + " " + kind.kind() + " " + name + " in namespace " + namespace);
    out.flush();
    resources.mergePatch(kind, namespace, name, patch);
    out.println("waiting for " + kind.kind() + " " + name + " to be reconciled");
    out.flush();
    ResourceView done = await(kind, namespace, name, token, timeout);
    return ReconcileOutcome.of(done);
  }

  <T extends HasMetadata> ReconcileOutcome requestAndWait(
      CapstanKind<T> kind, String namespace, String name, Duration timeout) {
    String token = newToken();
    return requestAndWait(kind, namespace, name, requestPatch(token), token, timeout, "annotating");
  }

  private <T extends HasMetadata> ResourceView await(
      CapstanKind<T> kind, String namespace, String name, String token, Duration timeout) {
    AtomicReference<ResourceView> last = new AtomicReference<>();
    try {
      T object = resources.resource(kind, namespace, name).waitUntilCondition(o -> {
        ResourceView view = o == null ? null : kind.view(o);
        last.set(view);
        return ReconcileOutcome.finished(view, token);
      }, timeout.toMillis(), TimeUnit.MILLISECONDS);
      return kind.view(object);
    } catch (KubernetesClientTimeoutException e) {
      throw new CliException(ReconcileOutcome.timedOut(last.get(), token, timeout,
          kind.kind() + " " + namespace + "/" + name));
    }
  }
}
