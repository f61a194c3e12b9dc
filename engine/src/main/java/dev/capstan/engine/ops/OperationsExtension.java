package dev.capstan.engine.ops;

import dev.capstan.engine.EngineExtension;
import dev.capstan.engine.EngineOptions;
import dev.capstan.engine.fairness.FairExecutor;
import dev.capstan.engine.ops.events.EventRecorder;
import dev.capstan.engine.ops.events.StatusChangeEvents;
import dev.capstan.engine.ops.leader.LeaderElection;
import dev.capstan.engine.ops.metrics.ControllerMetrics;
import dev.capstan.engine.ops.metrics.Metrics;
import dev.capstan.engine.ops.metrics.MetricsObserver;
import dev.capstan.engine.ops.metrics.ReplicaMetrics;
import dev.capstan.engine.ops.server.OpsServer;
import dev.capstan.engine.ops.server.Readiness;
import dev.capstan.engine.pipeline.Observers;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.shard.ShardMembership;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Everything an operator of Capstan needs around the controllers: the metrics and probe endpoint,
 * controller metrics, leader election and Events derived from status changes. The webhook receivers
 * (the webhook package's {@code WebhookExtension}) are added beside it by the composition root and
 * count into its {@link #metrics()}.
 *
 * <p>The probe endpoint starts while the engine is being built, so that liveness is answered while
 * the caches fill; {@code /readyz} turns ready once the controllers started (or, with leader
 * election, once this replica leads or stands by with a working API connection).
 */
public final class OperationsExtension implements EngineExtension {

  private final OperationsSettings settings;
  private final PrometheusMeterRegistry registry;
  private final Metrics metrics;
  private final Clock clock;
  private volatile LeaderElection election;
  private final ControllerMetrics controllerMetrics;
  private boolean jvmMetricsBound;
  private EventRecorder events;
  private final StatusChangeEvents statusEvents;
  private volatile KubernetesClient client;
  private volatile boolean started;
  private OpsServer opsServer;

  public OperationsExtension(
      OperationsSettings settings, PrometheusMeterRegistry registry, Clock clock) {
    this.settings = settings;
    this.registry = registry;
    this.metrics = new Metrics(registry);
    this.clock = clock;
    this.controllerMetrics = new ControllerMetrics(metrics, clock);
    this.statusEvents =
        new StatusChangeEvents(() -> started && (election == null || election.isLeading()));
  }

  @Override
  public PipelineObserver observer() {
    return Observers.of(List.of(new MetricsObserver(metrics, controllerMetrics), statusEvents));
  }

  /** The metrics this engine records into. */
  public Metrics metrics() {
    return metrics;
  }

  /** May be called more than once (the operator framework applies its overrides lazily). */
  @Override
  public synchronized void configure(
      ConfigurationServiceOverrider operator, EngineOptions options) {
    if (election == null && options.leaderElect()) {
      election =
          new LeaderElection(
              options.watchLabelSelector(),
              settings.leaseNamespace(),
              LeaderElection.defaultIdentity(settings.identity()),
              LeaderElection::exitProcess,
              // The Lease's renewal times are the wall clock's, whatever clock the engine keeps.
              Clock.systemUTC());
      Gauge.builder("capstan.leader", () -> election.isLeading() ? 1 : 0)
          .description("1 while this replica holds the leader election Lease")
          .tag("lease", election.leaseName())
          .register(registry);
    }
    if (!jvmMetricsBound) {
      jvmMetricsBound = true;
      new JvmMemoryMetrics().bindTo(registry);
      new JvmThreadMetrics().bindTo(registry);
      new ProcessorMetrics().bindTo(registry);
      new UptimeMetrics().bindTo(registry);
    }
    operator.withMetrics(controllerMetrics);
    if (election != null) {
      operator.withLeaderElectionConfiguration(election.configuration());
    }
    if (opsServer == null) {
      try {
        opsServer = OpsServer.start(settings.metricsAddress(), registry, this::readiness);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot serve metrics on " + settings.metricsAddress() + ": " + e.getMessage(), e);
      }
    }
  }

  @Override
  public void queueAndShare(FairExecutor queue, Optional<ShardMembership> share) {
    ReplicaMetrics replica =
        new ReplicaMetrics(registry, share.map(ShardMembership::replicaName).orElse(""));
    queue.onWaited(replica::queueWaited);
    share.ifPresent(s -> replica.share(s.counters()));
  }

  /** The Lease's watchdog runs from before this replica may lead until the controllers stopped. */
  @Override
  public void starting(KubernetesClient kubernetesClient) {
    if (election != null) {
      election.watch(kubernetesClient);
    }
  }

  @Override
  public void started(KubernetesClient kubernetesClient, EngineOptions options) {
    this.client = kubernetesClient;
    events = EventRecorder.create(kubernetesClient, "capstan", clock);
    statusEvents.recordWith(events);
    started = true;
  }

  @Override
  public void stopping() {
    started = false;
    if (election != null) {
      election.stopping();
    }
    if (events != null) {
      events.close();
    }
    if (opsServer != null) {
      opsServer.close();
    }
  }

  @Override
  public void stopped() {
    if (election != null) {
      election.close();
    }
  }

  /** The bound metrics address (tests ask for port 0). */
  public Optional<InetSocketAddress> metricsAddress() {
    return Optional.ofNullable(opsServer).map(OpsServer::address);
  }

  Readiness readiness() {
    if (!started) {
      return Readiness.notReady("controllers not started yet");
    }
    LeaderElection le = election;
    if (le == null) {
      return Readiness.ready("controllers running");
    }
    if (le.isLeading()) {
      return Readiness.ready("leading (Lease " + le.leaseName() + ")");
    }
    // A standby is ready while it can see the Lease: it can take over when the leader goes.
    String namespace = le.leaseNamespace(client);
    try {
      Lease lease = client.leases().inNamespace(namespace).withName(le.leaseName()).get();
      String holder =
          lease == null || lease.getSpec() == null ? "nobody" : lease.getSpec().getHolderIdentity();
      return Readiness.ready("standing by (Lease " + le.leaseName() + " held by " + holder + ")");
    } catch (KubernetesClientException e) {
      return Readiness.notReady(
          "standing by, but cannot read Lease "
              + namespace
              + "/"
              + le.leaseName()
              + ": HTTP "
              + e.getCode());
    }
  }
}
