package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseDependency;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.pipeline.Outcome;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A HelmRelease's dependsOn gate through the pipeline, one case per decision. */
class ReleaseDependenciesTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String DB = "helm.capstan.dev/v2/HelmRelease/apps/db";
  private static final String INFRA = "kustomize.capstan.dev/v1/Kustomization/apps/infra";

  private final ReleaseFakes fakes = new ReleaseFakes();

  @Test
  void aDependencyNotReadyWaitsWithoutRenderingAndLooksAgainAtTheDependencyRequeue() {
    HelmRelease release = fixture("app.yaml");
    given(DB, "db-not-ready.yaml");
    given(INFRA, "infra-ready.yaml");

    Outcome outcome = fakes.pipeline().reconcile(release);

    assertEquals(Outcome.Kind.DEPENDENCY_NOT_READY, outcome.kind());
    assertEquals(Optional.of(Duration.ofSeconds(30)), outcome.requeueAfter());
    assertEquals(0, fakes.renders);
    assertEquals(0, fakes.applies);
    Condition ready = ready(release.getStatus());
    assertEquals("False DependencyNotReady", ready.getStatus() + " " + ready.getReason());
    assertTrue(
        ready.getMessage().startsWith("dependency '" + DB + "' is not ready"), ready.getMessage());
    assertTrue(ready.getMessage().contains("Helm install failed"), ready.getMessage());
    assertEquals(Optional.empty(), HelmReleaseStatuses.condition(release.getStatus(), "Released"));
  }

  @Test
  void aDependencyReadyForAnOlderGenerationIsNotReady() {
    HelmRelease release = fixture("app.yaml");
    given(DB, "db-outdated.yaml");
    given(INFRA, "infra-ready.yaml");

    assertEquals(Outcome.Kind.DEPENDENCY_NOT_READY, fakes.pipeline().reconcile(release).kind());
    assertEquals(0, fakes.renders);
  }

  @Test
  void aMissingDependencyIsNamed() {
    HelmRelease release = fixture("app.yaml");
    given(DB, "db-ready.yaml");

    fakes.pipeline().reconcile(release);

    Condition ready = ready(release.getStatus());
    assertEquals("DependencyNotReady", ready.getReason());
    assertEquals("dependency '" + INFRA + "' not found", ready.getMessage());
  }

  @Test
  void onceEveryDependencyIsReadyTheReleaseIsInstalled() {
    HelmRelease release = fixture("app.yaml");
    given(DB, "db-not-ready.yaml");
    given(INFRA, "infra-ready.yaml");
    HelmReleasePipeline pipeline = fakes.pipeline();
    pipeline.reconcile(release);

    given(DB, "db-ready.yaml");
    Outcome outcome = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.SUCCEEDED, outcome.kind());
    assertEquals(1, fakes.renders);
    Condition ready = ready(release.getStatus());
    assertEquals("True InstallSucceeded", ready.getStatus() + " " + ready.getReason());
  }

  @Test
  void aCycleThroughAKustomizationIsNamedAndNothingIsRendered() {
    HelmRelease release = fixture("app.yaml");
    given(DB, "db-ready.yaml");
    given(INFRA, "infra-depends-on-podinfo.yaml");

    // The walk starts from the release in hand: it is not read back.
    Outcome outcome = fakes.pipeline().reconcile(release);

    assertFalse(
        fakes.dependencyReads.contains("helm.capstan.dev/v2/HelmRelease/apps/podinfo"),
        fakes.dependencyReads.toString());

    assertEquals(Outcome.Kind.TRANSIENT, outcome.kind());
    assertEquals(0, fakes.renders);
    Condition ready = ready(release.getStatus());
    assertEquals("False DependencyCycle", ready.getStatus() + " " + ready.getReason());
    assertEquals(
        "dependency cycle: helm.capstan.dev/v2/HelmRelease/apps/podinfo -> "
            + INFRA
            + " -> helm.capstan.dev/v2/HelmRelease/apps/podinfo",
        ready.getMessage());
  }

  @Test
  void withCrossNamespaceReferencesRefusedADependencyElsewhereIsNotRead() {
    fakes.noCrossNamespaceRefs = true;
    HelmRelease release = fixture("app.yaml");
    release.getSpec().dependsOn().set(0, new HelmReleaseDependency(null, null, "db", "data", null));

    fakes.pipeline().reconcile(release);

    Condition ready = ready(release.getStatus());
    assertEquals("AccessDenied", ready.getReason());
    assertTrue(ready.getMessage().contains("'data/db'"), ready.getMessage());
    assertEquals(0, fakes.dependencyReads.size());
  }

  @Test
  void aReadyExprDecidesInsteadOfTheHealthStatus() {
    HelmRelease release = fixture("app.yaml");
    release
        .getSpec()
        .dependsOn()
        .set(
            0,
            new HelmReleaseDependency(
                null, null, "db", null, "dep.status.observedGeneration == 2"));
    given(DB, "db-not-ready.yaml");
    given(INFRA, "infra-ready.yaml");

    Outcome outcome = fakes.pipeline().reconcile(release);

    assertEquals(
        Outcome.Kind.SUCCEEDED, outcome.kind(), () -> ready(release.getStatus()).getMessage());
  }

  @Test
  void anInvalidReadyExprIsAFailureNamingTheEntry() {
    HelmRelease release = fixture("app.yaml");
    release
        .getSpec()
        .dependsOn()
        .set(
            1,
            new HelmReleaseDependency(
                "kustomize.capstan.dev/v1", "Kustomization", "infra", null, "dep.status.("));

    Outcome outcome = fakes.pipeline().reconcile(release);

    // Only a change of the spec can mend it: Stalled, not retried.
    assertEquals(Outcome.Kind.TERMINAL, outcome.kind());
    assertEquals(Optional.empty(), outcome.requeueAfter());
    Condition stalled = HelmReleaseStatuses.condition(release.getStatus(), "Stalled").orElseThrow();
    assertEquals("True InvalidCELExpression", stalled.getStatus() + " " + stalled.getReason());
    Condition ready = ready(release.getStatus());
    assertEquals("InvalidCELExpression", ready.getReason());
    assertTrue(ready.getMessage().startsWith("spec.dependsOn[1].readyExpr: "), ready.getMessage());
    assertEquals(0, fakes.renders);
  }

  private void given(String id, String fixture) {
    try {
      fakes.dependencyObjects.put(
          id, YAML.readValue(text(fixture), new TypeReference<Map<String, Object>>() {}));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static HelmRelease fixture(String name) {
    return new KubernetesSerialization().unmarshal(text(name), HelmRelease.class);
  }

  private static String text(String name) {
    try (InputStream in =
        ReleaseDependenciesTest.class.getResourceAsStream("/helmrelease/dependencies/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Condition ready(HelmReleaseStatus status) {
    return HelmReleaseStatuses.condition(status, "Ready").orElseThrow();
  }
}
