package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.testing.CapstanCrds;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Between reconciles, the Healthy condition follows the cluster: a custom resource whose status is
 * changed by hand flips Healthy to False and back, judged by the Kustomization's CEL checks.
 */
class ContinuousHealthIT extends EngineTestBase {
  private static final String CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: widgets.e2e.capstan.dev}
      spec:
        group: e2e.capstan.dev
        names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          subresources: {status: {}}
          schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
      """;
  private static final String WIDGET =
      """
      apiVersion: e2e.capstan.dev/v1
      kind: Widget
      metadata: {name: gear}
      spec: {size: 3}
      """;
  private static final String EXPRS =
      """
        healthCheckExprs:
        - apiVersion: e2e.capstan.dev/v1
          kind: Widget
          current: "has(status.phase) && status.phase == 'Ready'"
          failed: "has(status.phase) && status.phase == 'Failed'"
      """;

  @Test
  void handEditedStatusFlipsHealthy() {
    installCrd();
    String revision = git.commit(Map.of("app/widget.yaml", WIDGET));
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", EXPRS);
    engine.awaitCondition("app", "Ready", Duration.ofSeconds(60), EngineTestBase::isTrue);
    var ready = engine.condition("app", "Ready").orElseThrow();

    setPhase("Ready");
    engine.awaitCondition("app", "Healthy", Duration.ofSeconds(15), EngineTestBase::isTrue);

    setPhase("Failed");
    var unhealthy =
        engine.awaitCondition("app", "Healthy", Duration.ofSeconds(15), EngineTestBase::isFalse);
    assertEquals("HealthCheckFailed", unhealthy.getReason());
    assertTrue(
        unhealthy.getMessage().startsWith("Widget/" + ns() + "/gear is Failed"),
        unhealthy.getMessage());
    assertTrue(
        unhealthy
            .getMessage()
            .endsWith("[decided by healthCheckExprs entry e2e.capstan.dev/v1/Widget]"),
        unhealthy.getMessage());

    setPhase("Ready");
    engine.awaitCondition("app", "Healthy", Duration.ofSeconds(15), EngineTestBase::isTrue);
    // No reconcile ran for any of this: Ready is exactly as the one reconcile left it.
    assertEquals(ready, engine.condition("app", "Ready").orElseThrow());
    assertEquals(revision, engine.kustomization("app").getStatus().lastAppliedRevision());
    assertTrue(engine.engine.monitor().watchedKinds().contains("Widget.e2e.capstan.dev"));

    // The informer for a kind goes away with the last inventory that needs it.
    engine.client.resources(Kustomization.class).inNamespace(ns()).withName("app").delete();
    EngineFixture.eventually(Duration.ofSeconds(30))
        .until(() -> !engine.engine.monitor().watchedKinds().contains("Widget.e2e.capstan.dev"));
  }

  private static void installCrd() {
    CapstanCrds.installYaml(engine.client, CRD);
  }

  private static void setPhase(String phase) {
    engine
        .client
        .genericKubernetesResources("e2e.capstan.dev/v1", "Widget")
        .inNamespace(ns())
        .withName("gear")
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"phase\":\"" + phase + "\"}}");
  }
}
