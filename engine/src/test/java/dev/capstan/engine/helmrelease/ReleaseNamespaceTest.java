package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code install.createNamespace}: an install creates its missing target namespace first, labelled
 * as Helm labels it; without it, nothing is checked (as Helm); an upgrade and an uninstall leave
 * namespaces alone.
 */
class ReleaseNamespaceTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void createNamespaceCreatesTheMissingTargetNamespaceBeforeAnythingIsApplied() throws IOException {
    fakes.namespaces = new HashSet<>(Set.of("apps"));
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"targetNamespace\":\"fresh\",\"install\":{\"createNamespace\":true}}");

    pipeline.reconcile(release);

    assertEquals(Map.of("fresh", Map.of("name", "fresh")), fakes.namespacesCreated);
    assertEquals("create Namespace/fresh", fakes.steps.get(0), fakes.steps.toString());
    assertCondition(release, "Ready", "True");

    pipeline.delete(release);
    assertTrue(fakes.namespaces.contains("fresh"), "an uninstall never deletes the namespace");
  }

  @Test
  void anExistingNamespaceIsNotCreatedAgain() throws IOException {
    fakes.namespaces = new HashSet<>(Set.of("apps", "fresh"));
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"targetNamespace\":\"fresh\",\"install\":{\"createNamespace\":true}}");

    pipeline.reconcile(release);

    assertTrue(fakes.namespacesCreated.isEmpty());
    assertCondition(release, "Ready", "True");
  }

  @Test
  void withoutCreateNamespaceNothingIsCheckedAndTheObjectsAreApplied() throws IOException {
    fakes.namespaces = new HashSet<>(Set.of("apps"));
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"targetNamespace\":\"missing\"}");

    pipeline.reconcile(release);

    assertTrue(fakes.namespacesCreated.isEmpty());
    assertTrue(fakes.applies > 0, "the objects applied, each failing on its own if it must");
    assertTrue(
        fakes.steps.stream().noneMatch(s -> s.contains("Namespace/missing")),
        fakes.steps.toString());
  }

  @Test
  void aChartThatMakesItsOwnNamespaceInstallsWithoutCreateNamespace() throws IOException {
    fakes.namespaces = new HashSet<>(Set.of("apps"));
    fakes.manifest =
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: own}\n---\n" + fakes.manifest;
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"targetNamespace\":\"own\"}");

    pipeline.reconcile(release);

    assertTrue(fakes.namespacesCreated.isEmpty());
    assertTrue(fakes.writes.contains("Namespace/own"), fakes.writes.toString());
    assertCondition(release, "Ready", "True");
  }

  @Test
  void aNamespaceThatCannotBeCreatedFailsTheInstallNamingIt() throws IOException {
    fakes.namespaces = new HashSet<>(Set.of("apps"));
    fakes.namespaceRefusal =
        new KubernetesClientException(
            new StatusBuilder()
                .withCode(403)
                .withMessage("namespaces is forbidden: cannot create resource")
                .build());
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"targetNamespace\":\"fresh\",\"install\":{\"createNamespace\":true}}");

    pipeline.reconcile(release);

    assertEquals(0, fakes.applies);
    Condition ready = condition(release, "Ready");
    assertEquals("False InstallFailed", ready.getStatus() + " " + ready.getReason());
    assertTrue(
        ready
            .getMessage()
            .contains("target namespace \"fresh\" could not be created: namespaces is forbidden"),
        ready.getMessage());
  }

  @Test
  void anUpgradeNeitherCreatesNorChecksTheNamespace() throws IOException {
    HelmRelease release = ReleaseFakes.release();
    update(release, "{\"targetNamespace\":\"fresh\",\"install\":{\"createNamespace\":true}}");
    pipeline.reconcile(release);
    fakes.namespaces = new HashSet<>(List.of("apps"));
    release.getMetadata().setGeneration(2L);
    update(release, "{\"values\":{\"replicaCount\":3}}");

    pipeline.reconcile(release);

    assertTrue(fakes.namespacesCreated.isEmpty());
    assertEquals(2, fakes.records.lastKey());
    assertCondition(release, "Ready", "True");
  }

  private static void update(HelmRelease release, String json) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode spec = mapper.valueToTree(release.getSpec());
    spec.setAll((ObjectNode) mapper.readTree(json));
    release.setSpec(mapper.treeToValue(spec, HelmReleaseSpec.class));
  }

  private static Condition condition(HelmRelease release, String type) {
    return HelmReleaseStatuses.condition(release.getStatus(), type).orElseThrow();
  }

  private static void assertCondition(HelmRelease release, String type, String expected) {
    assertEquals(expected, condition(release, type).getStatus());
  }
}
