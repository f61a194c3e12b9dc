package dev.capstan.engine;

import dev.capstan.engine.fairness.FairExecutor;
import dev.capstan.engine.pipeline.PipelineObserver;
import dev.capstan.engine.shard.ShardMembership;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import java.util.Optional;

/**
 * Something that runs alongside the controllers: a metrics endpoint, a webhook receiver, leader
 * election. The engine calls the hooks in order: configure, queueAndShare, starting, started,
 * stopping, stopped.
 */
public interface EngineExtension {

  /** Adjusts the operator before it is created (metrics, leader election). */
  default void configure(ConfigurationServiceOverrider operator, EngineOptions options) {}

  /**
   * The reconcile queue (how long tasks wait, by namespace) and, with {@code --shards}, this
   * replica's membership (its name, what it owns, its handoffs): for metrics. Called before the
   * controllers start.
   */
  default void queueAndShare(FairExecutor queue, Optional<ShardMembership> share) {}

  /** Called right before the controllers start (and, with leader election, may lead). */
  default void starting(KubernetesClient client) {}

  /** Called once the controllers run. */
  default void started(KubernetesClient client, EngineOptions options) {}

  /** Told what each reconcile did (metrics); read once, when the engine is built. */
  default PipelineObserver observer() {
    return PipelineObserver.NONE;
  }

  /** Called before the controllers stop. */
  default void stopping() {}

  /** Called once the controllers have stopped (their reconciles ended or were cut off). */
  default void stopped() {}
}
