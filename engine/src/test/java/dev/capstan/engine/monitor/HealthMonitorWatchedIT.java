package dev.capstan.engine.monitor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.kustomization.HealthTracking.ServiceAccount;
import dev.capstan.engine.monitor.HealthOwners.Told;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.Status;
import dev.capstan.kube.ObjectRef;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The health monitor's watch stands for a live read of an owner's objects only when it watches
 * exactly those, judged by the same evaluator, with the engine's rights; it follows the cluster.
 */
@ExtendWith(KubernetesCluster.class)
class HealthMonitorWatchedIT {
  private static final String GROUP = "watched.capstan.dev";

  @Test
  void theWatchStandsForALiveReadOfExactlyTheObjectsItWatches(
      KubernetesClient client, TestNamespace ns) {
    NamespacedName owner = new NamespacedName(ns.name(), "app");
    client
        .configMaps()
        .inNamespace(ns.name())
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("settings")
                .addToLabels(GROUP + "/name", "app")
                .addToLabels(GROUP + "/namespace", ns.name())
                .endMetadata()
                .addToData("a", "b")
                .build())
        .create();
    List<ObjectRef> objects = List.of(ObjectRef.of("v1", "ConfigMap", ns.name(), "settings"));
    HealthEvaluator evaluator = HealthEvaluator.create(List.of(), false);
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try (HealthMonitor monitor =
        new HealthMonitor(client, owners(), Clock.systemUTC(), scheduler, Duration.ofMillis(50))) {
      assertEquals(Optional.empty(), monitor.watched(owner, objects, evaluator), "not watched");

      monitor.track(
          owner, objects, evaluator, Optional.empty(), Optional.empty(), Optional.empty());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> monitor.watched(owner, objects, evaluator).isPresent());
      assertEquals(Status.Current, monitor.watched(owner, objects, evaluator).get().status());
      assertEquals(Optional.empty(), monitor.watched(owner, List.of(), evaluator), "other objects");
      assertEquals(
          Optional.empty(),
          monitor.watched(owner, objects, HealthEvaluator.create(List.of(), false)),
          "judged otherwise");

      client.configMaps().inNamespace(ns.name()).withName("settings").delete();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  monitor
                      .watched(owner, objects, evaluator)
                      .map(AggregateHealth::status)
                      .filter(s -> s != Status.Current)
                      .isPresent());

      monitor.track(
          owner,
          objects,
          evaluator,
          Optional.of(new ServiceAccount(new NamespacedName(ns.name(), "tenant"), () -> client)),
          Optional.empty(),
          Optional.empty());
      assertTrue(monitor.watched(owner, objects, evaluator).isEmpty(), "a service account's reads");
    } finally {
      scheduler.shutdownNow();
    }
  }

  /** Owners that are told nothing: only the monitor's reads are looked at. */
  private static HealthOwners owners() {
    return new HealthOwners() {
      @Override
      public String group() {
        return GROUP;
      }

      @Override
      public Told tell(NamespacedName key, AggregateHealth health) {
        return Told.UNCHANGED;
      }
    };
  }
}
