package dev.capstan.ui;

import dev.capstan.api.common.ReconciledSpec;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.SourceStatus;
import dev.capstan.engine.shard.ShardOptions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the overview page shows: every Kustomization, HelmRelease and source the user can list (a
 * section per source kind), the counts at the top, and why a part could not be read.
 *
 * @param problems one line per kind that could not be listed (forbidden, unreachable); the page
 *     shows it where that kind's rows would be
 */
record Overview(
    Counts counts,
    List<Row> kustomizations,
    List<Row> helmReleases,
    List<SourceRows> sources,
    List<Problem> problems) {

  /** The numbers at the top of the page, over Kustomizations. */
  record Counts(int total, int ready, int notReady, int unhealthy, int suspended) {}

  /**
   * One source kind's section.
   *
   * @param kinds the kind's plural, e.g. {@code GitRepositories}, as its heading and its problems
   *     name it
   */
  record SourceRows(String kinds, List<Row> rows) {}

  /** A kind the page could not read, and the API server's (or the connection's) reason. */
  record Problem(String kind, String message) {}

  private static final Comparator<Row> ORDER =
      Comparator.comparing(Row::namespace).thenComparing(Row::name);

  static Overview of(
      Collection<Kustomization> ks,
      Collection<HelmRelease> hrs,
      List<SourceRows> sources,
      List<Problem> problems) {
    List<Row> ksRows = ks.stream().map(Overview::row).sorted(ORDER).toList();
    List<Row> hrRows = hrs.stream().map(HelmReleaseView::row).sorted(ORDER).toList();
    return new Overview(count(ksRows), ksRows, hrRows, List.copyOf(sources), List.copyOf(problems));
  }

  /** The section of one source kind, its rows sorted as the Kustomizations'. */
  static SourceRows rows(
      String kinds,
      Collection<? extends CustomResource<? extends ReconciledSpec, ? extends SourceStatus>>
          sources) {
    return new SourceRows(kinds, sources.stream().map(Overview::row).sorted(ORDER).toList());
  }

  static Counts count(List<Row> rows) {
    int ready = 0;
    int unhealthy = 0;
    int suspended = 0;
    for (Row row : rows) {
      ready += row.countsAsReady() ? 1 : 0;
      unhealthy += row.countsAsUnhealthy() ? 1 : 0;
      suspended += row.suspended() ? 1 : 0;
    }
    return new Counts(rows.size(), ready, rows.size() - ready, unhealthy, suspended);
  }

  static Row row(Kustomization ks) {
    KustomizationStatus status = ks.getStatus();
    Conditions conditions = new Conditions(status == null ? null : status.conditions());
    String revision =
        status == null || status.lastAppliedRevision() == null ? "" : status.lastAppliedRevision();
    boolean suspended = ks.getSpec() != null && ks.getSpec().suspended();
    return new Row(
        "Kustomization",
        ks.getMetadata().getNamespace(),
        ks.getMetadata().getName(),
        conditions.status("Ready"),
        conditions.reason("Ready"),
        conditions.message("Ready"),
        conditions.status("Healthy"),
        revision,
        "",
        suspended,
        conditions.lastChange(),
        owner(ks));
  }

  /** The owner label a sharded engine writes; cut, as it is the tenant's object to write. */
  private static String owner(Kustomization ks) {
    Map<String, String> labels = ks.getMetadata().getLabels();
    String owner = labels == null ? null : labels.get(ShardOptions.REPLICA_LABEL);
    if (owner == null) {
      return "";
    }
    return owner.length() <= ReplicaGroup.MAX_NAME
        ? owner
        : owner.substring(0, ReplicaGroup.MAX_NAME) + "…";
  }

  /** A source's row: no health of its own, its revision is its artifact's. */
  static Row row(CustomResource<? extends ReconciledSpec, ? extends SourceStatus> source) {
    SourceStatus status = source.getStatus();
    boolean suspended = source.getSpec() != null && source.getSpec().suspended();
    Conditions conditions = new Conditions(status == null ? null : status.conditions());
    return new Row(
        HasMetadata.getKind(source.getClass()),
        source.getMetadata().getNamespace(),
        source.getMetadata().getName(),
        conditions.status("Ready"),
        conditions.reason("Ready"),
        conditions.message("Ready"),
        "",
        Objects.requireNonNullElse(SourceStatus.revisionOf(status), ""),
        "",
        suspended,
        conditions.lastChange(),
        "");
  }
}
