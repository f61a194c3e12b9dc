package dev.capstan.engine.dependencies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The readiness of a depended-on object other than a Kustomization, one case per outcome. */
class ObjectDependencyCheckTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final HealthEvaluator EVALUATOR =
      HealthEvaluator.create(
          List.of(),
          BuiltinLibrary.load(),
          Clock.fixed(Instant.parse("2024-01-01T00:00:00Z"), ZoneOffset.UTC));
  private static final ObjectDependency DB =
      new ObjectDependency("apps/v1", "Deployment", "data", "db");
  private static final ObjectDependency FLAGS =
      new ObjectDependency("v1", "ConfigMap", "data", "flags");
  private static final Map<String, Object> SELF =
      Map.of("metadata", Map.of("name", "app", "namespace", "data"));

  private static DependencyLookup fixture(String name) {
    try (InputStream in =
        ObjectDependencyCheckTest.class.getResourceAsStream("/dependencies/" + name)) {
      return new DependencyLookup.Found(
          YAML.readValue(in, new TypeReference<Map<String, Object>>() {}));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static DependencyReadiness check(
      ObjectDependency id, DependencyLookup lookup, String readyExpr) {
    return ObjectDependencyCheck.check(
        id, lookup, EVALUATOR, readyExpr == null ? null : ReadyExpression.compile(readyExpr), SELF);
  }

  @Test
  void anObjectIsPrintedWithItsApiVersionAndKind() {
    assertEquals("apps/v1/Deployment/data/db", DB.toString());
    assertEquals(
        "apiextensions.k8s.io/v1/CustomResourceDefinition/widgets.example.com",
        new ObjectDependency(
                "apiextensions.k8s.io/v1",
                "CustomResourceDefinition",
                "data",
                "widgets.example.com")
            .clusterScoped()
            .toString());
    assertEquals("apps", DB.group());
    assertEquals("", FLAGS.group());
  }

  @Test
  void aCurrentDeploymentIsReady() {
    assertTrue(check(DB, fixture("deployment-available.yaml"), null).isReady());
  }

  @Test
  void aDeploymentRollingOutIsInProgress() {
    DependencyReadiness readiness = check(DB, fixture("deployment-rolling-out.yaml"), null);
    assertFalse(readiness.isReady());
    assertTrue(
        readiness
            .reason()
            .startsWith("dependency 'apps/v1/Deployment/data/db' is not ready: InProgress"),
        readiness.reason());
  }

  @Test
  void aDeploymentPastItsDeadlineHasFailed() {
    DependencyReadiness readiness = check(DB, fixture("deployment-deadline-exceeded.yaml"), null);
    assertFalse(readiness.isReady());
    assertTrue(
        readiness
            .reason()
            .startsWith("dependency 'apps/v1/Deployment/data/db' is not ready: Failed"),
        readiness.reason());
  }

  @Test
  void aCustomResourceIsJudgedByTheBuiltInLibrary() {
    ObjectDependency pg = new ObjectDependency("acid.zalan.do/v1", "postgresql", "data", "main");
    assertTrue(check(pg, fixture("postgresql-running.yaml"), null).isReady());
    DependencyReadiness failed = check(pg, fixture("postgresql-create-failed.yaml"), null);
    assertTrue(
        failed
            .reason()
            .startsWith("dependency 'acid.zalan.do/v1/postgresql/data/main' is not ready: Failed"),
        failed.reason());
  }

  @Test
  void aMissingObjectIsNotFound() {
    assertEquals(
        "dependency 'apps/v1/Deployment/data/db' not found",
        check(DB, new DependencyLookup.Missing(), null).reason());
  }

  @Test
  void anObjectTheReaderMayNotGetIsNotFoundAndSaysWhy() {
    DependencyReadiness readiness =
        check(
            DB,
            new DependencyLookup.Unreadable(
                "system:serviceaccount:data:app may not get deployments.apps in namespace data"),
            null);
    assertFalse(readiness.isReady());
    assertEquals(
        "dependency 'apps/v1/Deployment/data/db' not found: system:serviceaccount:data:app may not"
            + " get deployments.apps in namespace data",
        readiness.reason());
  }

  @Test
  void aKindTheApiServerDoesNotServeIsNotFoundAndSaysSo() {
    ObjectDependency widget = new ObjectDependency("example.com/v1", "Widget", "data", "w");
    assertEquals(
        "dependency 'example.com/v1/Widget/data/w' not found: the API server does not serve "
            + "example.com/v1 Widget",
        check(widget, new DependencyLookup.NotServed(), null).reason());
  }

  @Test
  void aReadyExprReplacesTheStatus() {
    assertTrue(check(FLAGS, fixture("configmap.yaml"), "dep.data.ok == 'yes'").isReady());
    // An InProgress Deployment is ready when the expression says so.
    assertTrue(
        check(DB, fixture("deployment-rolling-out.yaml"), "dep.status.updatedReplicas == 1")
            .isReady());
    // And a Current one is not when it does not.
    assertEquals(
        "dependency 'apps/v1/Deployment/data/db' is not ready: readyExpr 'dep.spec.replicas == 3'"
            + " is false",
        check(DB, fixture("deployment-available.yaml"), "dep.spec.replicas == 3").reason());
  }

  @Test
  void aReadyExprSeesTheDependent() {
    assertTrue(
        check(FLAGS, fixture("configmap.yaml"), "dep.metadata.namespace == self.metadata.namespace")
            .isReady());
  }

  @Test
  void aReadyExprThatFailsToEvaluateIsNotReadyWithCelsMessage() {
    DependencyReadiness readiness =
        check(FLAGS, fixture("configmap.yaml"), "dep.data.missing == 'yes'");
    assertFalse(readiness.isReady());
    assertTrue(
        readiness
            .reason()
            .startsWith("dependency 'v1/ConfigMap/data/flags': failed to evaluate readyExpr: "),
        readiness.reason());
  }

  @Test
  void aFailedReadIsNotReadyAndSaysWhy() {
    assertEquals(
        "dependency 'v1/ConfigMap/data/flags' cannot be read: connection refused",
        check(FLAGS, new DependencyLookup.ReadFailed("connection refused"), null).reason());
  }

  /** A Kustomization may wait for a HelmRelease: Ready True for its current generation. */
  @Test
  void aHelmReleaseIsReadyWhenReadyForItsCurrentGeneration() {
    ObjectDependency db = new ObjectDependency("helm.capstan.dev/v2", "HelmRelease", "apps", "db");

    assertTrue(check(db, fixture("helmrelease-ready.yaml"), null).isReady());
    DependencyReadiness failed = check(db, fixture("helmrelease-install-failed.yaml"), null);
    assertFalse(failed.isReady());
    assertTrue(
        failed.reason().startsWith("dependency 'helm.capstan.dev/v2/HelmRelease/apps/db' is not"),
        failed.reason());
    assertFalse(check(db, fixture("helmrelease-outdated.yaml"), null).isReady());
  }

  @Test
  void theWalkFollowsDependsOnAcrossKustomizationsAndHelmReleases() {
    ObjectDependency app = DependencyWalk.helmRelease("apps", "app");
    ObjectDependency infra = DependencyWalk.kustomization("apps", "infra");
    Map<ObjectDependency, Map<String, Object>> objects =
        Map.of(
            app,
            Map.of("spec", Map.of("dependsOn", List.of(Map.of("name", "db")))),
            DependencyWalk.helmRelease("apps", "db"),
            Map.of(
                "spec",
                Map.of(
                    "dependsOn",
                    List.of(
                        Map.of(
                            "apiVersion", "kustomize.capstan.dev/v1",
                            "kind", "Kustomization",
                            "name", "infra"),
                        Map.of("apiVersion", "v1", "kind", "ConfigMap", "name", "flags")))),
            infra,
            Map.of(
                "spec",
                Map.of(
                    "dependsOn",
                    List.of(
                        Map.of(
                            "apiVersion", "helm.capstan.dev/v2",
                            "kind", "HelmRelease",
                            "name", "app")))));

    List<ObjectDependency> cycle =
        DependencyWalk.cycleThrough(infra, id -> found(objects.get(id))).orElseThrow();

    assertEquals(
        "helm.capstan.dev/v2/HelmRelease/apps/app -> helm.capstan.dev/v2/HelmRelease/apps/db"
            + " -> kustomize.capstan.dev/v1/Kustomization/apps/infra"
            + " -> helm.capstan.dev/v2/HelmRelease/apps/app",
        DependencyGraph.describe(cycle));
    assertTrue(
        DependencyWalk.cycleThrough(
                DependencyWalk.helmRelease("apps", "db"),
                id -> id.equals(infra) ? new DependencyLookup.Missing() : found(objects.get(id)))
            .isEmpty());
  }

  private static DependencyLookup found(Map<String, Object> object) {
    return object == null ? new DependencyLookup.Missing() : new DependencyLookup.Found(object);
  }
}
