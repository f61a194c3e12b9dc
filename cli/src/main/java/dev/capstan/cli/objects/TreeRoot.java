package dev.capstan.cli.objects;

import dev.capstan.api.helm.ChartReference;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseDependency;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.api.kustomize.HealthCheckExpression;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.kustomize.SourceReference;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.dependencies.DependencyReferences;
import java.util.List;
import java.util.Optional;

/**
 * What {@code capstan tree} draws for one Kustomization or HelmRelease, in one shape for both: its
 * header, its source, what it depends on, its last reconciles or releases, the objects it applied
 * and the health checks they are judged by.
 *
 * @param source the Kustomization's source, or the HelmRelease's chart; empty without one
 * @param historyTitle the heading of {@code history}
 * @param history one line a snapshot of {@code status.history}, most recent first
 */
record TreeRoot(
    ResourceView view,
    Optional<ObjectRef> source,
    List<Dependency> dependsOn,
    String historyTitle,
    List<String> history,
    List<InventoryEntry> inventory,
    List<HealthCheckExpression> healthCheckExprs) {

  /** The apiVersion every source kind is served under. */
  private static final String SOURCES = GitRepository.GROUP + "/" + GitRepository.VERSION;

  /** An object the tree names by its apiVersion, kind, namespace and name. */
  record ObjectRef(String apiVersion, String kind, String namespace, String name) {
    String display() {
      return kind + "/" + namespace + "/" + name;
    }
  }

  /**
   * A {@code dependsOn} entry: the object, and whether it is of the root's own kind (a
   * Kustomization's Kustomization, a HelmRelease's HelmRelease), which is ready by its Ready
   * condition rather than by its health.
   */
  record Dependency(ObjectRef object, boolean sameKind, String readyExpr) {
    /** {@code Kind/namespace/name} for the root's own kind, else with the apiVersion before it. */
    String label() {
      return sameKind ? object.display() : object.apiVersion() + "/" + object.display();
    }
  }

  static TreeRoot of(Kustomization ks) {
    KustomizationSpec spec = ks.getSpec();
    KustomizationStatus status = ks.getStatus();
    String namespace = ks.getMetadata().getNamespace();
    return new TreeRoot(
        CapstanKind.KUSTOMIZATION.view(ks),
        spec == null ? Optional.empty() : source(spec.sourceRef(), namespace),
        spec == null || spec.dependsOn() == null
            ? List.of()
            : spec.dependsOn().stream().map(d -> dependency(d, namespace)).toList(),
        "last reconciles",
        status == null || status.history() == null
            ? List.of()
            : status.history().stream().map(HistoryText::line).toList(),
        status == null || status.inventory() == null || status.inventory().entries() == null
            ? List.of()
            : status.inventory().entries(),
        spec == null || spec.healthCheckExprs() == null ? List.of() : spec.healthCheckExprs());
  }

  static TreeRoot of(HelmRelease release) {
    HelmReleaseSpec spec = release.getSpec();
    HelmReleaseStatus status = release.getStatus();
    String namespace = release.getMetadata().getNamespace();
    return new TreeRoot(
        CapstanKind.HELM_RELEASE.view(release),
        chart(spec, status, namespace),
        spec == null || spec.dependsOn() == null
            ? List.of()
            : spec.dependsOn().stream().map(d -> dependency(d, namespace)).toList(),
        "last releases",
        status == null || status.history() == null
            ? List.of()
            : status.history().stream().map(TreeRoot::releaseLine).toList(),
        status == null || status.inventory() == null || status.inventory().entries() == null
            ? List.of()
            : status.inventory().entries(),
        spec == null || spec.healthCheckExprs() == null ? List.of() : spec.healthCheckExprs());
  }

  private static Optional<ObjectRef> source(SourceReference ref, String namespace) {
    if (ref == null || ref.name() == null) {
      return Optional.empty();
    }
    String kind = ref.kind() == null ? "GitRepository" : ref.kind().name();
    return Optional.of(
        new ObjectRef(SOURCES, kind, orDefault(ref.namespace(), namespace), ref.name()));
  }

  /** The HelmChart made for {@code spec.chart} (as its status names it), or the chartRef. */
  private static Optional<ObjectRef> chart(
      HelmReleaseSpec spec, HelmReleaseStatus status, String namespace) {
    ChartReference ref = spec == null ? null : spec.chartRef();
    if (ref != null && ref.name() != null) {
      // Read under Capstan's group whatever group the reference names, as the engine reads it.
      return Optional.of(
          new ObjectRef(
              SOURCES,
              ref.kind() == null ? "HelmChart" : ref.kind().name(),
              orDefault(ref.namespace(), namespace),
              ref.name()));
    }
    String made = status == null ? null : status.helmChart();
    if (made == null || !made.contains("/")) {
      return Optional.empty();
    }
    String[] parts = made.split("/", 2);
    return Optional.of(new ObjectRef(SOURCES, "HelmChart", parts[0], parts[1]));
  }

  private static Dependency dependency(DependencyReference ref, String namespace) {
    boolean kustomization = DependencyReferences.isKustomization(ref);
    ObjectRef object =
        new ObjectRef(
            kustomization ? Kustomization.GROUP + "/" + Kustomization.VERSION : ref.apiVersion(),
            kustomization ? "Kustomization" : ref.kind(),
            orDefault(ref.namespace(), namespace),
            ref.name());
    return new Dependency(object, kustomization, orDefault(ref.readyExpr(), ""));
  }

  private static Dependency dependency(HelmReleaseDependency ref, String namespace) {
    boolean release = ref.kind() == null || ref.kind().equals("HelmRelease");
    ObjectRef object =
        new ObjectRef(
            release ? HelmRelease.GROUP + "/" + HelmRelease.VERSION : ref.apiVersion(),
            release ? "HelmRelease" : ref.kind(),
            orDefault(ref.namespace(), namespace),
            ref.name());
    return new Dependency(object, release, orDefault(ref.readyExpr(), ""));
  }

  /** One release record: version, status and action, chart and version, when deployed. */
  private static String releaseLine(ReleaseSnapshot s) {
    return "v"
        + s.version()
        + "  "
        + s.status()
        + (s.action() == null ? "" : " (" + s.action() + ")")
        + "  "
        + s.chartName()
        + "@"
        + s.chartVersion()
        + "  deployed "
        + s.lastDeployed();
  }

  private static String orDefault(String value, String fallback) {
    return value == null || value.isEmpty() ? fallback : value;
  }
}
