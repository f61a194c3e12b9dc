package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.ignore}: a replica count an autoscaler changes is neither reported as drift nor
 * reverted, while the rest of the Deployment is still applied from Git.
 */
class IgnoreIT extends EngineTestBase {

  @Test
  void aScaledReplicaCountIsNeitherDriftNorRevertedAndNewRevisionsStillApply() {
    git.commit(Map.of("app/web.yaml", web("registry.invalid/web:1")));
    engine.gitRepository("repo", git.url());
    engine.kustomization(
        "app",
        "repo",
        "./app",
        """
          ignore:
          - paths: [/spec/replicas]
            target: {kind: Deployment}
          driftDetection: {mode: warn}
        """);
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);

    engine.client.apps().deployments().inNamespace(ns()).withName("web").scale(4);
    engine.reconcileAndWait("app", Duration.ofSeconds(60));
    assertEquals(4, deployment().getSpec().getReplicas(), "not reverted");
    assertEquals(
        "No drift detected",
        engine
            .awaitCondition("app", "Drifted", Duration.ofSeconds(5), EngineTestBase::isFalse)
            .getMessage(),
        "not reported either");

    String next = git.commit(Map.of("app/web.yaml", web("registry.invalid/web:2")));
    engine.requestReconcile(GitRepository.class, "repo");
    engine.awaitCondition(
        "app",
        "Ready",
        Duration.ofSeconds(60),
        c -> ("Applied revision: " + next).equals(c.getMessage()));
    Deployment applied = deployment();
    assertEquals(
        "registry.invalid/web:2",
        applied.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    assertEquals(4, applied.getSpec().getReplicas(), "the scaled count survives the new revision");
  }

  private static Deployment deployment() {
    return engine.client.apps().deployments().inNamespace(ns()).withName("web").get();
  }

  private static String web(String image) {
    return """
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers: [{name: web, image: "%s"}]
    """
        .formatted(image);
  }
}
