package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.helm.HelmRelease;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import org.junit.jupiter.api.Test;

class HelmReleaseViewTest {
  private static final String RELEASED =
      """
      apiVersion: helm.capstan.dev/v2
      kind: HelmRelease
      metadata: {name: "web<b>", namespace: team}
      spec:
        interval: 5m
        chart: {spec: {chart: podinfo, version: "6.x", sourceRef: {kind: HelmRepository, name: r}}}
      status:
        conditions:
        - {type: Ready, status: "False", reason: UpgradeFailed,
           message: "<script>alert(1)</script>", lastTransitionTime: "2026-01-02T00:00:00Z"}
        - {type: Released, status: "False", reason: UpgradeFailed, message: m,
           lastTransitionTime: "2026-01-01T00:00:00Z"}
        - {type: Healthy, status: "True", reason: Succeeded, message: ok,
           lastTransitionTime: "2026-01-01T00:00:00Z"}
        history:
        - {name: web, namespace: team, version: 2, status: superseded, chartName: podinfo,
           chartVersion: 6.5.0, appVersion: 6.5.0, digest: "sha256:b", configDigest: "sha256:c",
           firstDeployed: "2026-01-01T00:00:00Z", lastDeployed: "2026-01-01T01:00:00Z"}
        - {name: web, namespace: team, version: 3, status: failed, chartName: podinfo,
           chartVersion: 6.5.1, digest: "sha256:c", configDigest: "sha256:c",
           firstDeployed: "2026-01-01T00:00:00Z", lastDeployed: "2026-01-02T00:00:00Z"}
        - {name: web, namespace: team, version: 1, status: superseded, chartName: podinfo,
           chartVersion: 6.4.0, appVersion: 6.4.0, digest: "sha256:a", configDigest: "sha256:c",
           firstDeployed: "2026-01-01T00:00:00Z", lastDeployed: "2026-01-01T00:00:00Z"}
      """;

  @Test
  void rowReadsConditionsChartVersionAndReleaseAsTheStatusSays() {
    Row row = HelmReleaseView.row(hr(RELEASED));

    assertEquals("HelmRelease", row.kind());
    assertEquals("web<b>", row.name(), "kept as text: the page escapes it");
    assertEquals("False", row.ready());
    assertEquals("True", row.healthy());
    assertEquals("<script>alert(1)</script>", row.message());
    // the current release is the highest version, as Flux finds it, whatever the status order
    assertEquals("podinfo@6.5.1", row.revision());
    assertEquals("3", row.release());
    assertEquals("2026-01-02T00:00:00Z", row.lastChange());
  }

  @Test
  void historyIsNewestFirstWhateverTheStatusOrder() {
    List<HelmReleaseView.ReleaseLine> lines = HelmReleaseView.releases(hr(RELEASED).getStatus());

    assertEquals(
        List.of(3, 2, 1), lines.stream().map(HelmReleaseView.ReleaseLine::version).toList());
    HelmReleaseView.ReleaseLine failed = lines.get(0);
    assertEquals("failed", failed.status());
    assertEquals("6.5.1", failed.chartVersion());
    assertEquals("", failed.appVersion(), "an absent appVersion is empty, not null");
    assertEquals("2026-01-02T00:00:00Z", failed.lastDeployed());
    assertEquals("sha256:c", failed.digest());
  }

  @Test
  void pageHasConditionsChartSourceAndTheInventoryNote() {
    HelmReleaseView.Page page =
        HelmReleaseView.page(hr(RELEASED), new InventoryGroups.Result(List.of(), "none yet"));

    assertEquals("podinfo 6.x", page.chart());
    assertEquals(
        List.of("Ready", "Released", "Healthy"),
        page.conditions().stream().map(Details.ConditionLine::type).toList());
    assertEquals(3, page.releases().size());
    assertEquals("none yet", page.inventoryNote());
  }

  @Test
  void aReleaseWithoutStatusOrHistoryShowsUnknownAndNothingElse() {
    HelmRelease bare =
        hr(
            """
            apiVersion: helm.capstan.dev/v2
            kind: HelmRelease
            metadata: {name: new, namespace: team}
            spec:
              interval: 5m
              suspend: true
              chartRef: {kind: OCIRepository, name: charts}
            """);

    Row row = HelmReleaseView.row(bare);
    assertEquals("Unknown", row.ready());
    assertEquals("Unknown", row.healthy());
    assertEquals("", row.revision());
    assertEquals("", row.release());
    assertTrue(row.suspended());
    assertEquals(List.of(), HelmReleaseView.releases(bare.getStatus()));
    assertEquals(
        "OCIRepository charts",
        HelmReleaseView.page(bare, new InventoryGroups.Result(List.of(), "")).chart());
  }

  @Test
  void beforeAnyReleaseTheRowShowsTheVersionLastAttempted() {
    HelmRelease attempted =
        hr(
            """
            apiVersion: helm.capstan.dev/v2
            kind: HelmRelease
            metadata: {name: first, namespace: team}
            spec: {interval: 5m, chartRef: {kind: HelmChart, name: c}}
            status:
              lastAttemptedRevision: 1.2.3
              history:
              - {version: 4, status: deployed}
            """);
    HelmRelease noHistory =
        hr(
            """
            apiVersion: helm.capstan.dev/v2
            kind: HelmRelease
            metadata: {name: first, namespace: team}
            spec: {interval: 5m, chartRef: {kind: HelmChart, name: c}}
            status: {lastAttemptedRevision: 1.2.3}
            """);

    assertEquals("1.2.3", HelmReleaseView.row(noHistory).revision());
    HelmReleaseView.ReleaseLine partial = HelmReleaseView.releases(attempted.getStatus()).get(0);
    assertEquals(4, partial.version());
    assertEquals("", partial.chartName());
    assertEquals("", partial.digest());
    assertEquals("1.2.3", HelmReleaseView.row(attempted).revision(), "a snapshot naming no chart");
    assertEquals("4", HelmReleaseView.row(attempted).release());
  }

  @Test
  void aSnapshotWithAVersionButNoChartNameShowsTheVersionAlone() {
    HelmRelease unnamed =
        hr(
            """
            apiVersion: helm.capstan.dev/v2
            kind: HelmRelease
            metadata: {name: first, namespace: team}
            spec: {interval: 5m, chartRef: {kind: HelmChart, name: c}}
            status:
              history:
              - {version: 2, status: deployed, chartVersion: 6.5.0}
            """);

    assertEquals("6.5.0", HelmReleaseView.row(unnamed).revision());
  }

  @Test
  void aHostileHistoryIsBounded() {
    StringBuilder yaml =
        new StringBuilder(
            "apiVersion: helm.capstan.dev/v2\nkind: HelmRelease\n"
                + "metadata: {name: big, namespace: team}\nstatus:\n  history:\n");
    for (int i = 1; i <= HelmReleaseView.MAX_RELEASES + 20; i++) {
      yaml.append("  - {version: ").append(i).append(", status: superseded}\n");
    }

    List<HelmReleaseView.ReleaseLine> shown =
        HelmReleaseView.releases(hr(yaml.toString()).getStatus());
    assertEquals(HelmReleaseView.MAX_RELEASES, shown.size());
    // stored oldest first, the newest are the ones kept
    assertEquals(HelmReleaseView.MAX_RELEASES + 20, shown.get(0).version());
    assertEquals(21, shown.get(shown.size() - 1).version());
  }

  private static HelmRelease hr(String yaml) {
    return Serialization.unmarshal(yaml, HelmRelease.class);
  }
}
