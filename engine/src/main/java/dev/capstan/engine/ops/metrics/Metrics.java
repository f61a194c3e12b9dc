package dev.capstan.engine.ops.metrics;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
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

  private final MeterRegistry registry;

  public Metrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** One reconcile of a Kustomization (or GitRepository) and how long it took. */
  public void reconciled(
      String kind, String namespace, String name, ReconcileOutcome outcome, Duration took) {
    Timer.builder(RECONCILE_DURATION)
        .description("Duration of one reconcile, by object and result")
        .tags(objectTags(kind, namespace, name).and("result", outcome.tag()))
        .register(registry)
        .record(took);
  }

  /** How many objects one reconcile applied (created or changed) and pruned. */
  public void objectsChanged(String kind, String namespace, String name, int applied, int pruned) {
    Tags tags = objectTags(kind, namespace, name);
    DistributionSummary.builder(OBJECTS_APPLIED)
        .description("Objects applied by one reconcile")
        .baseUnit("objects")
        .tags(tags)
        .register(registry)
        .record(applied);
    DistributionSummary.builder(OBJECTS_PRUNED)
        .description("Objects pruned by one reconcile")
        .baseUnit("objects")
        .tags(tags)
        .register(registry)
        .record(pruned);
  }

  /** One fetch of a GitRepository. */
  public void fetched(String namespace, String name, ReconcileOutcome outcome, Duration took) {
    Timer.builder(FETCH_DURATION)
        .description("Duration of one Git fetch, by source and result")
        .tags(objectTags("GitRepository", namespace, name).and("result", outcome.tag()))
        .register(registry)
        .record(took);
  }

  /** One wait for applied objects to become healthy. */
  public void healthWaited(String namespace, String name, ReconcileOutcome outcome, Duration took) {
    Timer.builder(HEALTH_WAIT_DURATION)
        .description("Duration of the health wait of one reconcile")
        .tags(objectTags("Kustomization", namespace, name).and("result", outcome.tag()))
        .register(registry)
        .record(took);
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
    Tags tags = objectTags(kind, namespace, name);
    for (Meter meter : registry.getMeters()) {
      if (meter.getId().getTags().containsAll(tags.stream().toList())) {
        registry.remove(meter);
      }
    }
  }

  private static Tags objectTags(String kind, String namespace, String name) {
    return Tags.of("kind", kind, "namespace", namespace == null ? "" : namespace, "name", name);
  }
}
