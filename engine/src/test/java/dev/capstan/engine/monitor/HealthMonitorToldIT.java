package dev.capstan.engine.monitor;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.monitor.HealthOwners.Told;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.Status;
import dev.capstan.kube.ObjectRef;
import dev.capstan.testing.KubernetesCluster;
import dev.capstan.testing.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An owner is told a health only when its status is not known to tell it already: looking again
 * after a reconcile that said what it wrote tells nothing (no read, no write), while a status being
 * rewritten by someone else is told again.
 */
@ExtendWith(KubernetesCluster.class)
class HealthMonitorToldIT {
  private static final String GROUP = "told.capstan.dev";
  private static final Duration QUIET = Duration.ofSeconds(1);

  @Test
  void anOwnerIsToldOnlyWhatItsStatusIsNotKnownToTell(KubernetesClient client, TestNamespace ns) {
    NamespacedName owner = new NamespacedName(ns.name(), "app");
    client.configMaps().inNamespace(ns.name()).resource(settings(ns)).create();
    List<ObjectRef> objects = List.of(ObjectRef.of("v1", "ConfigMap", ns.name(), "settings"));
    HealthEvaluator evaluator = HealthEvaluator.create(List.of(), false);
    List<AggregateHealth> told = new CopyOnWriteArrayList<>();
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try (HealthMonitor monitor =
        new HealthMonitor(
            client, owners(told), Clock.systemUTC(), scheduler, Duration.ofMillis(50))) {
      monitor.track(
          owner, objects, evaluator, Optional.empty(), Optional.empty(), Optional.empty());
      await().atMost(Duration.ofSeconds(30)).until(() -> told.size() == 1);
      assertEquals(Status.Current, told.get(0).status());

      monitor.reevaluate(owner);
      stillToldTimes(told, 1, "looked again at what the status is known to tell");

      monitor.rewriting(owner);
      monitor.reevaluate(owner);
      await().atMost(Duration.ofSeconds(30)).until(() -> told.size() == 2);

      monitor.rewriting(owner);
      monitor.track(
          owner, objects, evaluator, Optional.empty(), Optional.empty(), Optional.of(told.get(1)));
      monitor.reevaluate(owner);
      stillToldTimes(told, 2, "rewritten with what the watch sees, as the track said");

      client.configMaps().inNamespace(ns.name()).withName("settings").delete();
      await().atMost(Duration.ofSeconds(30)).until(() -> told.size() == 3);
      assertNotEquals(Status.Current, told.get(2).status(), "a change is told");
    } finally {
      scheduler.shutdownNow();
    }
  }

  private static void stillToldTimes(List<AggregateHealth> told, int times, String why) {
    await().during(QUIET).atMost(QUIET.multipliedBy(3)).until(() -> told.size() == times);
    assertEquals(times, told.size(), why);
  }

  private static ConfigMap settings(TestNamespace ns) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName("settings")
        .addToLabels(GROUP + "/name", "app")
        .addToLabels(GROUP + "/namespace", ns.name())
        .endMetadata()
        .addToData("a", "b")
        .build();
  }

  /** Owners that write every health they are told, and keep it. */
  private static HealthOwners owners(List<AggregateHealth> told) {
    return new HealthOwners() {
      @Override
      public String group() {
        return GROUP;
      }

      @Override
      public Told tell(NamespacedName key, AggregateHealth health) {
        told.add(health);
        return Told.WRITTEN;
      }
    };
  }
}
