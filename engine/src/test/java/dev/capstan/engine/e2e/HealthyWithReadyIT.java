package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.KustomizationStatuses;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * With nothing to wait for, the status that first says Ready already says Healthy: the engine tells
 * it from the API server's answers to the applies, in the same write.
 */
class HealthyWithReadyIT extends EngineTestBase {
  private static final String SETTINGS =
      """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: settings}
      data: {mode: a}
      """;

  @Test
  void theStatusThatFirstSaysReadyAlsoSaysHealthy() {
    git.commit(Map.of("app/settings.yaml", SETTINGS));
    List<Kustomization> seen = new CopyOnWriteArrayList<>();
    try (Watch watch =
        engine
            .client
            .resources(Kustomization.class)
            .inNamespace(ns())
            .withName("app")
            .watch(recording(seen))) {
      engine.gitRepository("repo", git.url());
      engine.kustomization("app", "repo", "./app", "");
      engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
      EngineFixture.eventually(Duration.ofSeconds(10))
          .until(
              () ->
                  seen.stream().anyMatch(k -> ready(k).filter(EngineTestBase::isTrue).isPresent()));
    }
    Kustomization firstReady =
        seen.stream()
            .filter(k -> ready(k).filter(EngineTestBase::isTrue).isPresent())
            .findFirst()
            .orElseThrow();
    Condition healthy =
        KustomizationStatuses.condition(firstReady.getStatus(), ConditionTypes.HEALTHY)
            .orElseThrow(() -> new AssertionError("no Healthy beside Ready: " + firstReady));
    assertEquals("True", healthy.getStatus());
    assertEquals("Healthy", healthy.getReason());
    assertEquals("1 object is healthy", healthy.getMessage());
  }

  private static Optional<Condition> ready(Kustomization ks) {
    return KustomizationStatuses.condition(ks.getStatus(), ConditionTypes.READY);
  }

  private static Watcher<Kustomization> recording(List<Kustomization> seen) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Kustomization resource) {
        seen.add(resource);
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }
}
