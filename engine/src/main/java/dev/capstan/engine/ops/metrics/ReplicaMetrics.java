package dev.capstan.engine.ops.metrics;

import dev.capstan.engine.shard.ShardCounters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one replica does: how long reconciles wait in its queue, by namespace (the fairness across
 * tenants, seen from outside), and, where replicas share the work, what it owns and how much
 * changed hands. Each series carries the {@code replica} tag (empty for one engine alone).
 */
public final class ReplicaMetrics {
  static final String QUEUE_WAIT = "capstan.workqueue.wait";
  static final String OWNED_KUSTOMIZATIONS = "capstan.shard.owned.kustomizations";
  static final String OWNED_SLOTS = "capstan.shard.owned.slots";
  static final String DRAINING_SLOTS = "capstan.shard.draining.slots";
  static final String HANDOFFS = "capstan.shard.handoffs";

  /** How many namespaces get a queue-wait series of their own; the rest share {@link #OTHERS}. */
  static final int NAMESPACES_TAGGED = 100;

  /** The namespace tag of the rest: no namespace can be named so (not a DNS label). */
  static final String OTHERS = "_other";

  private final MeterRegistry registry;
  private final String replica;
  // The namespaces with a series of their own: the first ones seen, so that a cluster of many
  // tenants (or one creating namespaces without end) cannot grow the registry without bound.
  private final Set<String> tagged = ConcurrentHashMap.newKeySet();

  /**
   * @param replica this replica's name; empty for an engine that does not share the work
   */
  public ReplicaMetrics(MeterRegistry registry, String replica) {
    this.registry = registry;
    this.replica = replica;
  }

  /**
   * One reconcile of {@code namespace} waited {@code waited} in the queue before it ran; past the
   * first {@value #NAMESPACES_TAGGED} namespaces seen, counted under {@value #OTHERS}.
   */
  public void queueWaited(String namespace, Duration waited) {
    Timer.builder(QUEUE_WAIT)
        .description("Time a reconcile waited in the work queue before a thread took it")
        .tags("namespace", tag(namespace), "replica", replica)
        .register(registry)
        .record(waited);
  }

  private String tag(String namespace) {
    if (tagged.contains(namespace)) {
      return namespace;
    }
    synchronized (tagged) {
      if (tagged.size() < NAMESPACES_TAGGED) {
        tagged.add(namespace);
        return namespace;
      }
    }
    return OTHERS;
  }

  /** Publishes this replica's share; read at each scrape. */
  public void share(ShardCounters counters) {
    Gauge.builder(OWNED_KUSTOMIZATIONS, counters, ShardCounters::ownedKustomizations)
        .description("Kustomizations in the hash slots this replica owns")
        .tag("replica", replica)
        .strongReference(true)
        .register(registry);
    Gauge.builder(OWNED_SLOTS, counters, ShardCounters::claimedSlots)
        .description("Hash slots this replica claims")
        .tag("replica", replica)
        .strongReference(true)
        .register(registry);
    Gauge.builder(DRAINING_SLOTS, counters, ShardCounters::drainingSlots)
        .description("Hash slots this replica claims and is handing over")
        .tag("replica", replica)
        .strongReference(true)
        .register(registry);
    FunctionCounter.builder(HANDOFFS, counters, c -> (double) c.handoffs())
        .description("Hash slots this replica gained or gave up since it started")
        .tag("replica", replica)
        .register(registry);
  }
}
