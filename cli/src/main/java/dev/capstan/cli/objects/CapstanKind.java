package dev.capstan.cli.objects;

import dev.capstan.api.common.ReconciledSpec;
import dev.capstan.api.common.ReconciledStatus;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.api.kustomize.KubeConfigReference;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.BucketSpec;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositorySpec;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSpec;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.api.source.SourceStatus;
import dev.capstan.cli.cluster.CliException;
import dev.capstan.engine.dependencies.DependencyReferences;
import dev.capstan.engine.shard.ShardOptions;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.oci.OciSource;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A kind of Capstan object the commands act on, with the names users may type for it and how to
 * read it as a {@link ResourceView}.
 */
record CapstanKind<T extends HasMetadata>(
    Class<T> type, List<String> aliases, Function<T, ResourceView> viewer) {

  static final CapstanKind<Kustomization> KUSTOMIZATION =
      new CapstanKind<>(
          Kustomization.class,
          List.of("ks", "kustomization", "kustomizations"),
          CapstanKind::ofKustomization);

  static final CapstanKind<GitRepository> GIT_REPOSITORY =
      new CapstanKind<>(
          GitRepository.class,
          List.of("gitrepo", "gitrepos", "gitrepository", "gitrepositories"),
          CapstanKind::ofGitRepository);

  static final CapstanKind<OCIRepository> OCI_REPOSITORY =
      new CapstanKind<>(
          OCIRepository.class,
          List.of("ocirepo", "ocirepos", "ocirepository", "ocirepositories"),
          CapstanKind::ofOciRepository);

  static final CapstanKind<HelmRepository> HELM_REPOSITORY =
      new CapstanKind<>(
          HelmRepository.class,
          List.of("helmrepo", "helmrepos", "helmrepository", "helmrepositories"),
          CapstanKind::ofHelmRepository);

  static final CapstanKind<Bucket> BUCKET =
      new CapstanKind<>(Bucket.class, List.of("bucket", "buckets"), CapstanKind::ofBucket);

  static final CapstanKind<HelmChart> HELM_CHART =
      new CapstanKind<>(
          HelmChart.class, List.of("hc", "helmchart", "helmcharts"), CapstanKind::ofHelmChart);

  static final CapstanKind<HelmRelease> HELM_RELEASE =
      new CapstanKind<>(
          HelmRelease.class,
          List.of("hr", "helmrelease", "helmreleases"),
          CapstanKind::ofHelmRelease);

  static final List<CapstanKind<?>> ALL =
      List.of(
          KUSTOMIZATION,
          GIT_REPOSITORY,
          OCI_REPOSITORY,
          HELM_REPOSITORY,
          HELM_CHART,
          BUCKET,
          HELM_RELEASE);

  /** The kind a user typed, case-insensitively. */
  static CapstanKind<?> parse(String typed) {
    String name = typed.toLowerCase(Locale.ROOT);
    for (CapstanKind<?> kind : ALL) {
      if (kind.aliases().contains(name) || name.equals(kind.plural() + "." + kind.group())) {
        return kind;
      }
    }
    throw new CliException(
        "unknown kind '"
            + typed
            + "': expected ks (kustomizations), gitrepo (gitrepositories), ocirepo"
            + " (ocirepositories), helmrepo (helmrepositories), hc (helmcharts), bucket"
            + " (buckets) or hr (helmreleases)",
        CliException.BAD_INPUT);
  }

  /** The kind's name, e.g. {@code GitRepository}, as its class declares it. */
  String kind() {
    return HasMetadata.getKind(type);
  }

  /** The API group, e.g. {@code source.capstan.dev}. */
  String group() {
    return HasMetadata.getGroup(type);
  }

  /** The plural of the kind's resource, e.g. {@code gitrepositories}. */
  String plural() {
    return HasMetadata.getPlural(type);
  }

  ResourceView view(T object) {
    return viewer.apply(object);
  }

  private static ResourceView ofKustomization(Kustomization ks) {
    KustomizationStatus status = ks.getStatus();
    return resourceView(
        ks, status == null ? null : status.lastAppliedRevision(), "", wideColumns(ks));
  }

  /**
   * DEPENDS-ON, KUBECONFIG and DECRYPTION: what else a Kustomization's reconcile stands on;
   * DRIFTED: the Drifted condition's status (drift detection mode warn); REPLICA: the replica that
   * owns it where replicas share the work (its label); HISTORY: how its last reconciles ended.
   */
  private static List<ResourceView.Column> wideColumns(Kustomization ks) {
    KustomizationSpec spec = ks.getSpec();
    String namespace = ks.getMetadata().getNamespace();
    List<String> dependsOn =
        spec == null || spec.dependsOn() == null
            ? List.of()
            : spec.dependsOn().stream()
                .map(
                    ref ->
                        DependencyReferences.isKustomization(ref)
                            ? (ref.namespace() == null || ref.namespace().isEmpty()
                                    ? ""
                                    : ref.namespace() + "/")
                                + ref.name()
                            : DependencyReferences.object(ref, namespace).toString())
                .toList();
    KubeConfigReference kubeConfig = spec == null ? null : spec.kubeConfig();
    String cluster =
        kubeConfig == null
            ? ""
            : kubeConfig.secretRef() != null
                ? "secret/" + kubeConfig.secretRef().name()
                : kubeConfig.configMapRef() != null
                    ? "configmap/" + kubeConfig.configMapRef().name()
                    : "";
    String decryption =
        spec == null || spec.decryption() == null || spec.decryption().provider() == null
            ? ""
            : spec.decryption().provider().name();
    KustomizationStatus status = ks.getStatus();
    String drifted = conditionStatus(status == null ? null : status.conditions(), "Drifted");
    return List.of(
        new ResourceView.Column("DEPENDS-ON", String.join(",", dependsOn)),
        new ResourceView.Column("KUBECONFIG", cluster),
        new ResourceView.Column("DECRYPTION", decryption),
        new ResourceView.Column("DRIFTED", drifted),
        new ResourceView.Column("REPLICA", replicaOf(ks)),
        new ResourceView.Column(
            "HISTORY", status == null ? "" : HistoryText.summary(status.history())));
  }

  private static String replicaOf(Kustomization ks) {
    Map<String, String> labels = ks.getMetadata().getLabels();
    String replica = labels == null ? null : labels.get(ShardOptions.REPLICA_LABEL);
    return replica == null ? "" : replica;
  }

  private static ResourceView ofGitRepository(GitRepository repo) {
    GitRepositorySpec spec = repo.getSpec();
    GitRepositoryStatus status = repo.getStatus();
    return ofSource(
        repo,
        spec == null ? null : spec.url(),
        List.of(
            new ResourceView.Column("VERIFIED", verified(status)),
            new ResourceView.Column("INCLUDES", includes(spec))));
  }

  private static ResourceView ofOciRepository(OCIRepository repo) {
    OCIRepositoryStatus status = repo.getStatus();
    return ofSource(
        repo,
        repo.getSpec() == null ? null : repo.getSpec().url(),
        List.of(
            new ResourceView.Column("VERIFIED", verified(status)),
            new ResourceView.Column("ORIGIN", origin(status))));
  }

  /** TYPE: default (an index) or oci (a chart registry, which stores no artifact). */
  private static ResourceView ofHelmRepository(HelmRepository repo) {
    boolean oci = repo.getSpec() != null && repo.getSpec().oci();
    return ofSource(
        repo,
        repo.getSpec() == null ? null : repo.getSpec().url(),
        List.of(new ResourceView.Column("TYPE", oci ? "oci" : "default")));
  }

  /** URL: the endpoint and bucket; PROVIDER and PREFIX in the wide table. */
  private static ResourceView ofBucket(Bucket bucket) {
    BucketSpec spec = bucket.getSpec();
    return ofSource(
        bucket,
        spec == null ? null : spec.endpoint() + "/" + spec.bucketName(),
        List.of(
            new ResourceView.Column(
                "PROVIDER", spec == null ? "" : spec.effectiveProvider().name()),
            new ResourceView.Column(
                "PREFIX", spec == null || spec.prefix() == null ? "" : spec.prefix())));
  }

  /** A chart has no URL of its own: CHART and SOURCE (its sourceRef) in the wide table. */
  private static ResourceView ofHelmChart(HelmChart chart) {
    HelmChartSpec spec = chart.getSpec();
    String source =
        spec == null || spec.sourceRef() == null
            ? ""
            : spec.sourceRef().kind() + "/" + spec.sourceRef().name();
    return ofSource(
        chart,
        null,
        List.of(
            new ResourceView.Column("CHART", spec == null ? "" : spec.chart()),
            new ResourceView.Column("SOURCE", source)));
  }

  /**
   * A HelmRelease's revision is the chart version of its latest release; CHART (its HelmChart
   * template's chart or its chartRef) and RELEASE ({@code namespace/name.v<version>}) in the wide
   * table.
   */
  private static ResourceView ofHelmRelease(HelmRelease release) {
    HelmReleaseSpec spec = release.getSpec();
    String chart = "";
    if (spec != null && spec.chart() != null && spec.chart().spec() != null) {
      chart = spec.chart().spec().chart();
    } else if (spec != null && spec.chartRef() != null) {
      chart = spec.chartRef().kind() + "/" + spec.chartRef().name();
    }
    ReleaseSnapshot latest = release.getStatus() == null ? null : release.getStatus().latest();
    return resourceView(
        release,
        latest == null ? null : latest.chartVersion(),
        "",
        List.of(
            new ResourceView.Column("CHART", chart),
            new ResourceView.Column(
                "RELEASE",
                latest == null
                    ? ""
                    : latest.namespace() + "/" + latest.name() + ".v" + latest.version())));
  }

  private static ResourceView ofSource(
      CustomResource<? extends ReconciledSpec, ? extends SourceStatus> source,
      String url,
      List<ResourceView.Column> wide) {
    // spec.url is the tenant's text: it may carry a password, in any form.
    String scrubbed = url == null ? "" : Redaction.scrubUrl(url);
    return resourceView(source, SourceStatus.revisionOf(source.getStatus()), scrubbed, wide);
  }

  private static ResourceView resourceView(
      CustomResource<? extends ReconciledSpec, ? extends ReconciledStatus> object,
      String revision,
      String url,
      List<ResourceView.Column> wide) {
    ObjectMeta meta = object.getMetadata();
    ReconciledStatus status = object.getStatus();
    return new ResourceView(
        HasMetadata.getKind(object.getClass()),
        meta.getNamespace(),
        meta.getName(),
        meta.getCreationTimestamp(),
        generation(meta),
        status == null ? null : status.observedGeneration(),
        status == null ? null : status.conditions(),
        revision,
        status == null ? null : status.lastHandledReconcileAt(),
        object.getSpec() != null && object.getSpec().suspended(),
        url,
        wide);
  }

  /** The revision of the source the artifact was made from, as its annotation names it. */
  private static String origin(OCIRepositoryStatus status) {
    return status == null || status.artifact() == null || status.artifact().metadata() == null
        ? ""
        : status.artifact().metadata().getOrDefault(OciSource.REVISION_ANNOTATION, "");
  }

  /** The SourceVerified condition's status, empty without spec.verify. */
  private static String verified(SourceStatus status) {
    return conditionStatus(status == null ? null : status.conditions(), "SourceVerified");
  }

  /** The status of the condition of {@code type}, empty when there is none. */
  private static String conditionStatus(List<Condition> conditions, String type) {
    return conditions == null
        ? ""
        : conditions.stream()
            .filter(c -> type.equals(c.getType()))
            .map(Condition::getStatus)
            .findFirst()
            .orElse("");
  }

  /** The GitRepositories whose artifacts are included, by name. */
  private static String includes(GitRepositorySpec spec) {
    return spec == null || spec.include() == null
        ? ""
        : String.join(
            ",",
            spec.include().stream()
                .map(i -> i.repository() == null ? "" : i.repository().name())
                .toList());
  }

  private static long generation(ObjectMeta meta) {
    return meta.getGeneration() == null ? 0 : meta.getGeneration();
  }
}
