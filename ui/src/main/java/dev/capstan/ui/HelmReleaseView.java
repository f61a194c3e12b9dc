package dev.capstan.ui;

import dev.capstan.api.helm.ChartReference;
import dev.capstan.api.helm.HelmChartTemplate;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.ReleaseSnapshot;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A HelmRelease as the view shows it: its overview row and its page (conditions, the release
 * history of {@code status.history}, the inventory). Only what the status says: the view reads no
 * release record from storage, so no value of a release reaches the page.
 */
final class HelmReleaseView {
  /** More snapshots than Flux keeps (its maxHistory defaults to 5) are a hostile status. */
  static final int MAX_RELEASES = 100;

  private HelmReleaseView() {}

  /**
   * A HelmRelease's page.
   *
   * @param chart where the chart comes from: spec.chart's name and version range, or spec.chartRef
   * @param releases status.history, newest first
   * @param inventoryNote why the inventory is incomplete or absent; empty when it is whole
   */
  record Page(
      Row row,
      String chart,
      List<Details.ConditionLine> conditions,
      List<ReleaseLine> releases,
      List<Details.NamespaceGroup> inventory,
      String inventoryNote) {}

  /** One release record's snapshot; absent fields are empty text, an absent version is 0. */
  record ReleaseLine(
      int version,
      String status,
      String action,
      String chartName,
      String chartVersion,
      String appVersion,
      String firstDeployed,
      String lastDeployed,
      String digest) {}

  static Row row(HelmRelease hr) {
    HelmReleaseStatus status = hr.getStatus();
    Conditions conditions = new Conditions(status == null ? null : status.conditions());
    ReleaseSnapshot latest = newest(status).orElse(null);
    return new Row(
        "HelmRelease",
        hr.getMetadata().getNamespace(),
        hr.getMetadata().getName(),
        conditions.status("Ready"),
        conditions.reason("Ready"),
        conditions.message("Ready"),
        conditions.status("Healthy"),
        chartAndVersion(latest, status),
        latest == null || latest.version() == null ? "" : String.valueOf(latest.version()),
        hr.getSpec() != null && hr.getSpec().suspended(),
        conditions.lastChange(),
        "");
  }

  static Page page(HelmRelease hr, InventoryGroups.Result inventory) {
    HelmReleaseStatus status = hr.getStatus();
    Conditions conditions = new Conditions(status == null ? null : status.conditions());
    return new Page(
        row(hr),
        chartSource(hr),
        conditions.lines(),
        releases(status),
        inventory.groups(),
        inventory.note());
  }

  /** status.history, newest (highest version) first whatever order the status holds. */
  static List<ReleaseLine> releases(HelmReleaseStatus status) {
    if (status == null || status.history() == null) {
      return List.of();
    }
    return status.history().stream()
        .filter(Objects::nonNull)
        .map(HelmReleaseView::line)
        .sorted(Comparator.comparingInt(ReleaseLine::version).reversed())
        .limit(MAX_RELEASES)
        .toList();
  }

  /** The current release as Flux's {@code Snapshots.Latest} finds it: the highest version. */
  private static Optional<ReleaseSnapshot> newest(HelmReleaseStatus status) {
    if (status == null || status.history() == null) {
      return Optional.empty();
    }
    return status.history().stream()
        .filter(Objects::nonNull)
        .max(Comparator.comparingInt(s -> s.version() == null ? 0 : s.version()));
  }

  private static ReleaseLine line(ReleaseSnapshot s) {
    return new ReleaseLine(
        s.version() == null ? 0 : s.version(),
        text(s.status()),
        text(s.action()),
        text(s.chartName()),
        text(s.chartVersion()),
        text(s.appVersion()),
        text(s.firstDeployed()),
        text(s.lastDeployed()),
        text(s.digest()));
  }

  /**
   * {@code podinfo@6.5.0} from the current release; without one (or one naming no chart), the
   * version last attempted.
   */
  private static String chartAndVersion(ReleaseSnapshot latest, HelmReleaseStatus status) {
    String name = latest == null ? "" : text(latest.chartName());
    String version = latest == null ? "" : text(latest.chartVersion());
    if (name.isEmpty() && version.isEmpty()) {
      return status == null ? "" : text(status.lastAttemptedRevision());
    }
    if (name.isEmpty() || version.isEmpty()) {
      return name + version;
    }
    return name + "@" + version;
  }

  private static String chartSource(HelmRelease hr) {
    if (hr.getSpec() == null) {
      return "";
    }
    HelmChartTemplate chart = hr.getSpec().chart();
    if (chart != null && chart.spec() != null) {
      String version = text(chart.spec().version());
      return text(chart.spec().chart()) + (version.isEmpty() ? "" : " " + version);
    }
    ChartReference ref = hr.getSpec().chartRef();
    return ref == null ? "" : ref.kind() + " " + text(ref.name());
  }

  private static String text(String value) {
    return Objects.requireNonNullElse(value, "");
  }
}
