package dev.capstan.engine.ops.metrics;

import dev.capstan.engine.core.NamespacedName;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Feeds {@link Metrics} from the operator framework: the duration and result of every reconcile (a
 * reconcile that throws is a failure) and the depth of each controller's work queue (objects
 * submitted for a reconcile that has not started yet).
 */
public final class ControllerMetrics implements io.javaoperatorsdk.operator.api.monitoring.Metrics {
  private final Metrics metrics;
  private final Clock clock;
  private final Map<String, Set<ResourceID>> queued = new ConcurrentHashMap<>();

  /** How the pipeline said a reconcile in progress ended, by kind and object. */
  private final Map<Reported, ReconcileOutcome> reported = new ConcurrentHashMap<>();

  private record Reported(String kind, String namespace, String name) {}

  public ControllerMetrics(Metrics metrics, Clock clock) {
    this.metrics = metrics;
    this.clock = clock;
  }

  @Override
  public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
    if (!"reconcile".equals(execution.name())) {
      return execution.execute();
    }
    String kind = kind(execution.metadata(), execution.controllerName());
    ResourceID id = execution.resourceID();
    Instant start = clock.instant();
    ReconcileOutcome outcome = ReconcileOutcome.FAILURE;
    Reported key = new Reported(kind, id.getNamespace().orElse(""), id.getName());
    try {
      T result = execution.execute();
      // A failure the pipeline wrote to the status returns normally; it is still a failure.
      outcome = reported.getOrDefault(key, ReconcileOutcome.SUCCESS);
      return result;
    } finally {
      reported.remove(key);
      metrics.reconciled(
          kind,
          id.getNamespace().orElse(""),
          id.getName(),
          outcome,
          Duration.between(start, clock.instant()));
    }
  }

  /** The pipeline's word on how the reconcile of {@code key} now running ended. */
  void reported(String kind, NamespacedName key, ReconcileOutcome outcome) {
    reported.put(new Reported(kind, key.namespace(), key.name()), outcome);
  }

  @Override
  public void reconcileCustomResource(
      HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
    queue(resource).add(ResourceID.fromResource(resource));
  }

  @Override
  public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
    queue(resource).remove(ResourceID.fromResource(resource));
  }

  @Override
  public void cleanupDoneFor(ResourceID id, Map<String, Object> metadata) {
    String kind = kind(metadata, null);
    if (kind != null) {
      queued.getOrDefault(kind, Set.of()).remove(id);
      metrics.forget(kind, id.getNamespace().orElse(""), id.getName());
    }
  }

  private Set<ResourceID> queue(HasMetadata resource) {
    return queued.computeIfAbsent(
        resource.getKind(),
        kind -> {
          Set<ResourceID> set = ConcurrentHashMap.newKeySet();
          metrics.queueDepth(kind, set::size);
          return set;
        });
  }

  private static String kind(Map<String, Object> metadata, String fallback) {
    Object gvk = metadata == null ? null : metadata.get(Constants.RESOURCE_GVK_KEY);
    return gvk instanceof GroupVersionKind g ? g.getKind() : fallback;
  }
}
