package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An object whose deletion the API server refuses (here a ValidatingAdmissionPolicy) stays in
 * {@code status.inventory} and its prune is tried again until it succeeds; the deletion of a
 * Kustomization whose objects cannot be deleted keeps the Kustomization until they can.
 */
class PruneFailureIT extends EngineTestBase {

  @AfterEach
  void lift() {
    allowDeletes();
  }

  @Test
  void aRefusedPruneKeepsTheObjectInTheInventoryAndIsTriedAgain() {
    git.commit(
        Map.of(
            "app/keep.yaml", Manifests.configMap("keep", "1"),
            "app/guarded.yaml", guarded("guarded")));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", "  retryInterval: 5s");
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    refuseDeletes();

    Map<String, String> removal = new HashMap<>();
    removal.put("app/guarded.yaml", null);
    git.commit(removal);
    engine.requestReconcile(GitRepository.class, "repo");
    Condition failed =
        engine.awaitCondition(
            "app", "Ready", Duration.ofSeconds(60), c -> "PruneFailed".equals(c.getReason()));
    assertTrue(
        failed.getMessage().startsWith("prune failed: ConfigMap/" + ns() + "/guarded: "),
        failed.getMessage());
    assertTrue(failed.getMessage().contains("guarded by the test"), failed.getMessage());
    assertTrue(inventory("app").contains(ns() + "_guarded__ConfigMap"), inventory("app"));
    assertNotNull(engine.client.configMaps().inNamespace(ns()).withName("guarded").get());

    allowDeletes();
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    EngineFixture.eventually(Duration.ofSeconds(30))
        .until(
            () -> engine.client.configMaps().inNamespace(ns()).withName("guarded").get() == null);
    assertTrue(!inventory("app").contains("_guarded_"), inventory("app"));
  }

  @Test
  void aKustomizationWhoseObjectsCannotBeDeletedStaysUntilTheyCan() {
    git.commit(Map.of("held/one.yaml", guarded("held")));
    engine.gitRepository("held-repo", git.url());
    engine.kustomization("held", "held-repo", "./held", "  retryInterval: 5s");
    engine.awaitCondition("held", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    refuseDeletes();

    engine.client.resources(Kustomization.class).inNamespace(ns()).withName("held").delete();
    Condition failed =
        engine.awaitCondition(
            "held", "Ready", Duration.ofSeconds(60), c -> "PruneFailed".equals(c.getReason()));
    assertTrue(
        failed.getMessage().startsWith("deleting its objects failed: ConfigMap/" + ns() + "/held"),
        failed.getMessage());
    assertNotNull(engine.kustomization("held"), "the Kustomization is kept");

    allowDeletes();
    EngineFixture.eventually(Duration.ofSeconds(60))
        .until(
            () ->
                engine.kustomization("held") == null
                    && engine.client.configMaps().inNamespace(ns()).withName("held").get() == null);
  }

  private static String inventory(String name) {
    return String.valueOf(engine.kustomization(name).getStatus().inventory().entries());
  }

  private static String guarded(String name) {
    return """
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: %s, labels: {capstan-test/guarded: "true"}}
    data: {value: "1"}
    """
        .formatted(name);
  }

  /**
   * A policy that refuses deleting this class's guarded ConfigMaps; returns once the API server
   * enforces it (a probe's deletion is refused).
   */
  private static void refuseDeletes() {
    policy().forEach(p -> engine.client.resource(p).serverSideApply());
    ConfigMap probe =
        Serialization.unmarshal(
            guarded("probe").replace("metadata: {", "metadata: {namespace: " + ns() + ", "),
            ConfigMap.class);
    EngineFixture.eventually(Duration.ofSeconds(30))
        .until(
            () -> {
              engine.client.resource(probe).serverSideApply();
              try {
                engine.client.resource(probe).delete();
                return false;
              } catch (KubernetesClientException e) {
                return e.getMessage().contains("guarded by the test");
              }
            });
  }

  private static void allowDeletes() {
    policy().forEach(p -> engine.client.resource(p).delete());
  }

  private static List<GenericKubernetesResource> policy() {
    String name = "capstan-test-guard-" + ns();
    return List.of(
        Serialization.unmarshal(
            """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: %s}
            spec:
              policyName: %s
              validationActions: [Deny]
              matchResources:
                namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: %s}}
            """
                .formatted(name, name, ns()),
            GenericKubernetesResource.class),
        Serialization.unmarshal(
            """
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: %s}
            spec:
              failurePolicy: Fail
              matchConstraints:
                resourceRules:
                - {apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [configmaps]}
              validations:
              - expression: >-
                  !has(oldObject.metadata.labels)
                  || !('capstan-test/guarded' in oldObject.metadata.labels)
                message: guarded by the test
            """
                .formatted(name),
            GenericKubernetesResource.class));
  }
}
