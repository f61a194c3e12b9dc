package dev.capstan.api;

import dev.capstan.api.kustomize.KustomizationStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.List;

/** Status values for tests. */
final class Fixtures {
  private Fixtures() {}

  static KustomizationStatus readyStatus(String revision, String message) {
    return new KustomizationStatus(
        1L,
        List.of(
            condition("Ready", message),
            condition("Healthy", "Healthy"),
            condition("Drifted", "1 object drifted: ConfigMap/apps/settings: /data/mode")),
        revision,
        revision,
        null,
        null);
  }

  private static Condition condition(String type, String message) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus("True")
        .withReason("Succeeded")
        .withMessage(message)
        .withLastTransitionTime("2026-01-01T00:00:00Z")
        .withObservedGeneration(1L)
        .build();
  }
}
