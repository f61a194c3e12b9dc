package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A healthCheckExprs entry without kind decides every kind of its API group (Flux 2.9); an entry
 * with a kind wins over it for that kind.
 */
class HealthCheckExprsGroupIT extends EngineTestBase {

  private static String crd(String kind, String plural) {
    return """
    apiVersion: apiextensions.k8s.io/v1
    kind: CustomResourceDefinition
    metadata: {name: %2$s.parity.capstan.dev}
    spec:
      group: parity.capstan.dev
      names: {kind: %1$s, plural: %2$s, singular: %3$s, listKind: %1$sList}
      scope: Namespaced
      versions:
      - name: v1
        served: true
        storage: true
        schema:
          openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
    """
        .formatted(kind, plural, kind.toLowerCase());
  }

  private static String object(String kind, String name, String phase) {
    return """
    apiVersion: parity.capstan.dev/v1
    kind: %s
    metadata: {name: %s}
    spec: {phase: %s}
    """
        .formatted(kind, name, phase);
  }

  @Test
  void anEntryWithoutKindJudgesEveryKindOfItsGroupUnlessAKindHasItsOwn() {
    git.commit(
        Map.of(
            "group/crds.yaml",
            crd("Widget", "widgets") + "---\n" + crd("Gadget", "gadgets"),
            "group/objects.yaml",
            object("Widget", "w1", "Fine") + "---\n" + object("Gadget", "g1", "Fine")));
    engine.gitRepository("repo", git.url());
    engine.kustomization(
        "group",
        "repo",
        "./group",
        """
          wait: true
          timeout: 2m
          healthCheckExprs:
          - apiVersion: parity.capstan.dev/v1
            current: "spec.phase == 'Done'"
            failed: "spec.phase == 'Fine'"
          - apiVersion: parity.capstan.dev/v1
            kind: Gadget
            current: "spec.phase == 'Fine'"
        """);

    var failed =
        engine.awaitCondition(
            "group",
            "Ready",
            Duration.ofSeconds(90),
            c -> "HealthCheckFailed".equals(c.getReason()));
    String message = failed.getMessage();
    assertTrue(message.contains("Widget/" + ns() + "/w1 is Failed"), message);
    assertTrue(message.contains("healthCheckExprs entry parity.capstan.dev/v1"), message);
    assertTrue(!message.contains("Gadget"), "the Gadget's own entry calls it Current: " + message);
  }
}
