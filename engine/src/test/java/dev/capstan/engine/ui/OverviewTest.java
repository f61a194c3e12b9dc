package dev.capstan.engine.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
