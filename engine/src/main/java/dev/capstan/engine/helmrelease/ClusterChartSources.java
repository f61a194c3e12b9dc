package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.helm.ChartReference;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.engine.conditions.ReleaseReason;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.StoredTrees;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The chart of a HelmRelease from the cluster: the HelmChart of spec.chart made (server-side apply
 * as the field manager {@code capstan}) or the object chartRef names read, its artifact found in
 * the engine's store. The HelmChart is applied only when it differs from the one last applied or
 * from what the cluster holds, so that an unchanged HelmRelease writes nothing.
 */
final class ClusterChartSources implements ChartSources {
  /** Why a chartRef to an ExternalArtifact is not followed, in the engine and outside it. */
  static final String EXTERNAL_ARTIFACT_REFUSED =
      "chartRef of kind ExternalArtifact is refused by Capstan";

  /** The field manager the HelmCharts of HelmReleases are applied as. */
  static final String FIELD_MANAGER = "capstan";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;
  private final StoredTrees trees;
  private final ChartSourceCache cache;
  private final Map<NamespacedName, JsonNode> applied = new ConcurrentHashMap<>();

  ClusterChartSources(KubernetesClient client, StoredTrees trees, ChartSourceCache cache) {
    this.client = client;
    this.trees = trees;
    this.cache = cache;
  }

  @Override
  public ChartArtifact find(HelmRelease release) {
    if (release.getSpec().chart() != null) {
      return stored(ensured(release));
    }
    ChartReference ref = release.getSpec().chartRef();
    String namespace = HelmChartTemplates.chartRefNamespace(release);
    return switch (ref.kind()) {
      case HelmChart ->
          stored(
              read(
                  HelmChart.class,
                  namespace,
                  ref.name(),
                  cache.helmChart(new NamespacedName(namespace, ref.name()))));
      case OCIRepository ->
          stored(
              read(
                  OCIRepository.class,
                  namespace,
                  ref.name(),
                  cache.ociRepository(new NamespacedName(namespace, ref.name()))));
      case ExternalArtifact ->
          throw ReleaseFailure.failed(ReleaseReason.INIT_FAILED, EXTERNAL_ARTIFACT_REFUSED);
    };
  }

  @Override
  public void forget(HelmRelease release) {
    if (release.getSpec() == null || release.getSpec().chart() == null) {
      return;
    }
    HelmChart desired = HelmChartTemplates.desired(release);
    applied.remove(NamespacedName.of(desired));
    client.resource(desired).delete();
  }

  private HelmChart ensured(HelmRelease release) {
    HelmChart desired = HelmChartTemplates.desired(release);
    NamespacedName key = NamespacedName.of(desired);
    JsonNode wanted = JSON.valueToTree(desired);
    try {
      // the cached HelmChart, when it holds what was last applied, saves a read at every look
      Optional<HelmChart> cached = cache.helmChart(key);
      if (cached.isPresent() && wanted.equals(applied.get(key)) && holds(cached.get(), wanted)) {
        return cached.get();
      }
      HelmChart live = client.resources(HelmChart.class).resource(desired).get();
      if (live != null && wanted.equals(applied.get(key)) && holds(live, wanted)) {
        return live;
      }
      HelmChart result =
          client.resource(desired).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
      applied.put(key, wanted);
      return result;
    } catch (KubernetesClientException e) {
      throw ReleaseFailure.failed(
          ReleaseReason.ARTIFACT_FAILED,
          "HelmChart '" + key + "' could not be applied: " + e.getMessage());
    }
  }

  /** Whether every field of {@code wanted}'s spec and labels is the same in {@code live}. */
  private static boolean holds(HelmChart live, JsonNode wanted) {
    JsonNode current = JSON.valueToTree(live);
    return contains(current.path("spec"), wanted.path("spec"))
        && contains(current.path("metadata").path("labels"), wanted.path("metadata").path("labels"))
        && contains(
            current.path("metadata").path("annotations"),
            wanted.path("metadata").path("annotations"));
  }

  /**
   * The generation {@code desired} would have once applied over {@code live} (none: 1): the same as
   * the live one's when the apply leaves its spec as it is, one more otherwise.
   */
  static long generationAfterApply(HelmChart live, HelmChart desired) {
    if (live == null || live.getMetadata().getGeneration() == null) {
      return 1;
    }
    boolean same =
        contains(JSON.valueToTree(live).path("spec"), JSON.valueToTree(desired).path("spec"));
    return live.getMetadata().getGeneration() + (same ? 0 : 1);
  }

  private static boolean contains(JsonNode live, JsonNode wanted) {
    if (wanted.isMissingNode() || wanted.isNull()) {
      return true;
    }
    if (!wanted.isObject()) {
      return wanted.equals(live);
    }
    for (Map.Entry<String, JsonNode> field : wanted.properties()) {
      if (!contains(live.path(field.getKey()), field.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** {@code cached} when the informers hold it, else the object read from the API server. */
  private <T extends HasMetadata> T read(
      Class<T> kind, String namespace, String name, Optional<T> cached) {
    if (cached.isPresent()) {
      return cached.get();
    }
    String what = HasMetadata.getKind(kind) + " '" + namespace + "/" + name + "'";
    T found;
    try {
      found = client.resources(kind).inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      throw ReleaseFailure.failed(
          ReleaseReason.ARTIFACT_FAILED, what + " could not be read: " + e.getMessage());
    }
    if (found == null) {
      throw ReleaseFailure.failed(ReleaseReason.ARTIFACT_FAILED, what + " not found");
    }
    return found;
  }

  private ChartArtifact stored(HasMetadata source) {
    String what =
        source.getKind()
            + " '"
            + source.getMetadata().getNamespace()
            + "/"
            + source.getMetadata().getName()
            + "'";
    SourceState state = SourceState.of(source);
    if (state.artifact() == null || state.artifact().revision() == null) {
      throw ReleaseFailure.waiting(
          ReleaseReason.SOURCE_NOT_READY, what + " is not ready: " + state.why());
    }
    if (!Objects.equals(state.observedGeneration(), source.getMetadata().getGeneration())) {
      throw ReleaseFailure.waiting(
          ReleaseReason.SOURCE_NOT_READY,
          what + " is not ready: its latest generation has not been reconciled yet");
    }
    Artifact artifact = state.artifact();
    Path root =
        trees
            .forDigest(artifact.digest())
            .orElseThrow(
                () ->
                    ReleaseFailure.waiting(
                        ReleaseReason.SOURCE_NOT_READY,
                        what + " has an artifact the engine's store does not hold yet"));
    return new ChartArtifact(
        source instanceof OCIRepository,
        what,
        artifact.revision(),
        artifact.digest(),
        root,
        chartIn(root, what),
        source instanceof HelmChart chart && chart.getStatus() != null
            ? chart.getStatus().observedChartName()
            : null);
  }

  /** The packaged chart in a stored tree, or the tree itself when it is a chart directory. */
  static String chartIn(Path root, String what) {
    try (Stream<Path> files = Files.list(root)) {
      Optional<Path> archive =
          files.filter(f -> f.getFileName().toString().endsWith(".tgz")).sorted().findFirst();
      if (archive.isPresent()) {
        return archive.get().getFileName().toString();
      }
    } catch (IOException e) {
      throw ReleaseFailure.failed(
          ReleaseReason.ARTIFACT_FAILED, what + ": its artifact cannot be read");
    }
    if (Files.isRegularFile(root.resolve("Chart.yaml"))) {
      return ".";
    }
    throw ReleaseFailure.failed(
        ReleaseReason.ARTIFACT_FAILED, what + ": its artifact holds no chart");
  }

  /** What a source's status says of its artifact. */
  private record SourceState(
      Artifact artifact, Long observedGeneration, List<Condition> conditions) {
    static SourceState of(HasMetadata source) {
      if (source instanceof HelmChart chart && chart.getStatus() != null) {
        return new SourceState(
            chart.getStatus().artifact(),
            chart.getStatus().observedGeneration(),
            chart.getStatus().conditions());
      }
      if (source instanceof OCIRepository repo && repo.getStatus() != null) {
        return new SourceState(
            repo.getStatus().artifact(),
            repo.getStatus().observedGeneration(),
            repo.getStatus().conditions());
      }
      return new SourceState(null, null, null);
    }

    /** The source's Ready message, or that it has no artifact yet. */
    String why() {
      return (conditions == null ? List.<Condition>of() : conditions)
          .stream()
              .filter(c -> "Ready".equals(c.getType()) && c.getMessage() != null)
              .map(Condition::getMessage)
              .findFirst()
              .orElse("no artifact yet");
    }
  }
}
