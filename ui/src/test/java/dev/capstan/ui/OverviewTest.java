package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import org.junit.jupiter.api.Test;

class OverviewTest {

  @Test
  void rowsAreSortedAndCounted() {
    Overview overview =
        Overview.of(
            List.of(
                UiFixtures.ks("b", "web", "True", "ReconciliationSucceeded", "True", false, "[]"),
                UiFixtures.ks("a", "db", "False", "HealthCheckFailed", "False", false, "[]"),
                UiFixtures.ks("a", "cache", "Unknown", "Progressing", null, true, "[]")),
            List.of(),
            List.of(),
            List.of());

    assertEquals(
        List.of("a/cache", "a/db", "b/web"),
        overview.kustomizations().stream().map(r -> r.namespace() + "/" + r.name()).toList());
    assertEquals(new Overview.Counts(3, 1, 2, 1, 1), overview.counts());
  }

  @Test
  void rowReadsReadyHealthyRevisionAndLastChange() {
    Row row =
        Overview.row(
            UiFixtures.ks("a", "db", "True", "ReconciliationSucceeded", "False", false, "[]"));

    assertEquals("True", row.ready());
    assertEquals("False", row.healthy());
    assertEquals("main@sha1:abc", row.revision());
    assertEquals("2026-01-02T00:00:00Z", row.lastChange());
    assertEquals(NodeState.FAILING, NodeState.of(row));
  }

  @Test
  void aKustomizationWithoutStatusIsUnknown() {
    Row row =
        Overview.row(
            UiFixtures.ks(
                """
                apiVersion: kustomize.capstan.dev/v1
                kind: Kustomization
                metadata: {name: fresh, namespace: a}
                spec: {sourceRef: {kind: GitRepository, name: repo}, path: ./, interval: 10m}
                """));

    assertEquals("Unknown", row.ready());
    assertEquals("", row.revision());
    assertEquals(NodeState.UNKNOWN, NodeState.of(row));
  }

  @Test
  void sourcesHaveTheirOwnRowsWithTheArtifactRevision() {
    OCIRepository repo =
        Serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: OCIRepository
            metadata: {name: app, namespace: a}
            spec: {url: "oci://registry.example/app", interval: 5m, suspend: true}
            status:
              artifact: {revision: "latest@sha256:abc", digest: "sha256:ef"}
              conditions:
              - {type: Ready, status: "False", reason: VerificationError, message: "bad signature",
                 lastTransitionTime: "2026-01-02T00:00:00Z"}
            """,
            OCIRepository.class);

    Overview overview =
        Overview.of(
            List.of(),
            List.of(),
            List.of(Overview.rows("OCIRepositories", List.of(repo))),
            List.of());

    Row row = overview.sources().get(0).rows().get(0);
    assertEquals("OCIRepository", row.kind());
    assertEquals("False", row.ready());
    assertEquals("VerificationError", row.reason());
    assertEquals("latest@sha256:abc", row.revision());
    assertTrue(row.suspended());
    assertEquals(new Overview.Counts(0, 0, 0, 0, 0), overview.counts());
  }

  @Test
  void everySourceKindHasASectionNamedByItsPlural() {
    assertEquals(
        List.of("GitRepositories", "OCIRepositories", "Buckets", "HelmRepositories", "HelmCharts"),
        Catalog.SOURCE_KINDS.stream().map(Catalog::plural).toList());
  }

  @Test
  void aSectionsRowsAreSortedByNamespaceThenName() {
    HelmRepository b = helmRepository("b", "charts");
    HelmRepository a = helmRepository("a", "stable");
    HelmRepository a2 = helmRepository("a", "alpha");

    Overview.SourceRows section = Overview.rows("HelmRepositories", List.of(b, a, a2));

    assertEquals(
        List.of("a/alpha", "a/stable", "b/charts"),
        section.rows().stream().map(r -> r.namespace() + "/" + r.name()).toList());
    assertEquals("HelmRepository", section.rows().get(0).kind());
  }

  private static HelmRepository helmRepository(String namespace, String name) {
    return Serialization.unmarshal(
        """
        apiVersion: source.capstan.dev/v1
        kind: HelmRepository
        metadata: {name: %s, namespace: %s}
        spec: {url: "https://charts.example", interval: 5m}
        """
            .formatted(name, namespace),
        HelmRepository.class);
  }
}
