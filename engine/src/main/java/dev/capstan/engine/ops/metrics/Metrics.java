package dev.capstan.engine.ops.metrics;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Capstan's own metrics, registered in the given registry (one per engine, never a global one).
 *
 * <p>Per-object meters carry {@code kind}, {@code namespace} and {@code name} tags; call {@link
 * #forget} when an object is deleted so that series of gone objects are not kept forever.
 */
public final class Metrics {
  static final String RECONCILE_DURATION = "capstan.reconcile.duration";
  static final String OBJECTS_APPLIED = "capstan.reconcile.objects.applied";
  static final String OBJECTS_PRUNED = "capstan.reconcile.objects.pruned";
  static final String FETCH_DURATION = "capstan.source.fetch.duration";
  static final String HEALTH_WAIT_DURATION = "capstan.health.wait.duration";
  static final String QUEUE_DEPTH = "capstan.workqueue.depth";
  static final String WEBHOOK_REQUESTS = "capstan.webhook.requests";
  static final String CHART_RENDERS = "capstan.chart.renders";

  private final MeterRegistry registry;

  /**
   * The meters of each object, so that forgetting one object does not walk every meter of every
   * other (with thousands of objects deleted together, that walk was quadratic).
   */
  private final Map<ObjectKey, Set<Meter.Id>> perObject = new ConcurrentHashMap<>();

  private record ObjectKey(String kind, String namespace, String name) {
    ObjectKey {
      namespace = namespace == null ? "" : namespace;
    }
  }

  public Metrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** One reconcile of a Kustomization (or GitRepository) and how long it took. */
  public void reconciled(
      String kind, String namespace, String name, ReconcileOutcome outcome, Duration took) {
    Timer timer =
        Timer.builder(RECONCILE_DURATION)
            .description("Duration of one reconcile, by object and result")
            .tags(objectTags(kind, namespace, name).and("result", outcome.tag()))
            .register(registry);
    owned(kind, namespace, name, timer).record(took);
  }

  /** How many objects one reconcile applied (created or changed) and pruned. */
  public void objectsChanged(String kind, String namespace, String name, int applied, int pruned) {
    Tags tags = objectTags(kind, namespace, name);
    DistributionSummary appliedSummary =
        DistributionSummary.builder(OBJECTS_APPLIED)
            .description("Objects applied by one reconcile")
            .baseUnit("objects")
            .tags(tags)
            .register(registry);
    owned(kind, namespace, name, appliedSummary).record(applied);
    DistributionSummary prunedSummary =
        DistributionSummary.builder(OBJECTS_PRUNED)
            .description("Objects pruned by one reconcile")
            .baseUnit("objects")
            .tags(tags)
            .register(registry);
    owned(kind, namespace, name, prunedSummary).record(pruned);
  }

  /**
   * One chart render for an object of {@code kind}, counted by kind only: a render of an unchanged
   * release is what a user checks this for, and per-object series would only multiply the output.
   */
  public void chartRendered(String kind) {
    registry.counter(CHART_RENDERS, "kind", kind).increment();
  }

  /** One fetch of a GitRepository. */
  public void fetched(String namespace, String name, ReconcileOutcome outcome, Duration took) {
    timed(
        FETCH_DURATION,
        "Duration of one Git fetch, by source and result",
        "GitRepository",
        namespace,
        name,
        outcome,
        took);
  }

  /** One wait for applied objects to become healthy. */
  public void healthWaited(String namespace, String name, ReconcileOutcome outcome, Duration took) {
    timed(
        HEALTH_WAIT_DURATION,
        "Duration of the health wait of one reconcile",
        "Kustomization",
        namespace,
        name,
        outcome,
        took);
  }

  /** Records {@code took} on the timer of one object and result. */
  private void timed(
      String metric,
      String description,
      String kind,
      String namespace,
      String name,
      ReconcileOutcome outcome,
      Duration took) {
    Timer timer =
        Timer.builder(metric)
            .description(description)
            .tags(objectTags(kind, namespace, name).and("result", outcome.tag()))
            .register(registry);
    owned(kind, namespace, name, timer).record(took);
  }

  /**
   * Publishes the depth of a controller's work queue. The supplier is read at each scrape; the
   * gauge keeps a strong reference to it, so it lives as long as the registry.
   */
  public void queueDepth(String controller, Supplier<Number> depth) {
    Gauge.builder(QUEUE_DEPTH, depth)
        .description("Objects waiting to be reconciled")
        .tags("controller", controller)
        .strongReference(true)
        .register(registry);
  }

  /**
   * One request to the webhook receiver. {@code reason} is a short fixed word, never request data.
   */
  public void webhookRequest(String receiverType, WebhookOutcome outcome, String reason) {
    registry
        .counter(WEBHOOK_REQUESTS, "type", receiverType, "outcome", outcome.tag(), "reason", reason)
        .increment();
  }

  /** Drops the per-object series of a deleted object. */
  public void forget(String kind, String namespace, String name) {
    Set<Meter.Id> ids = perObject.remove(new ObjectKey(kind, namespace, name));
    if (ids != null) {
      ids.forEach(registry::remove);
    }
  }

  /** Records {@code meter} as one of the object's, to be dropped when it is forgotten. */
  private <M extends Meter> M owned(String kind, String namespace, String name, M meter) {
    perObject
        .computeIfAbsent(new ObjectKey(kind, namespace, name), k -> ConcurrentHashMap.newKeySet())
        .add(meter.getId());
    return meter;
  }

  private static Tags objectTags(String kind, String namespace, String name) {
    return Tags.of("kind", kind, "namespace", namespace == null ? "" : namespace, "name", name);
  }
}
