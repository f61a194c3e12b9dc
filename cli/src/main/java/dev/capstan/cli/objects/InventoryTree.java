package dev.capstan.cli.objects;

import dev.capstan.api.common.Snapshot;
import dev.capstan.api.kustomize.DependencyReference;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.SourceReference;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.ExternalArtifact;
import dev.capstan.api.source.ExternalArtifactStatus;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.OCIRepositoryStatus;
import dev.capstan.engine.dependencies.DependencyReferences;
import dev.capstan.engine.kustomization.HealthEvaluators;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import dev.capstan.kube.InventoryId;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A Kustomization's inventory as a tree: objects grouped by namespace (cluster-scoped ones first),
 * each with its live health; Kustomizations in the inventory nest their own inventories. Its source
 * comes first (any kind of source, with its Ready status and revision), then what the Kustomization
 * depends on, each dependency with its live state, then its last reconciles.
 */
final class InventoryTree {
  static final String CLUSTER_SCOPED = "cluster-scoped";

  /** Reads live objects; empty when the object does not exist. */
  @FunctionalInterface
  interface LiveObjects {
    Optional<GenericKubernetesResource> get(
        String apiVersion, String kind, String namespace, String name);
  }

  private final LiveObjects live;
  private final BuiltinLibrary library;
  private final Clock clock;
  private final PrintWriter warnings;
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  InventoryTree(LiveObjects live, BuiltinLibrary library, Clock clock, PrintWriter warnings) {
    this.live = live;
    this.library = library;
    this.clock = clock;
    this.warnings = warnings;
  }

  TreeNode of(Kustomization root) {
    ResourceView view = CapstanKind.KUSTOMIZATION.view(root);
    String ready = view.conditionStatus(ResourceView.READY);
    String label =
        view.display()
            + "  Ready="
            + (ready.isEmpty() ? "Unknown" : ready)
            + (view.revision().isEmpty() ? "" : "  " + view.revision());
    // The Kustomizations on the path from the root, to stop at a cycle instead of recursing
    // forever.
    Set<String> ancestors = new HashSet<>();
    ancestors.add(key(view.namespace(), view.name()));
    List<TreeNode> groups = groups(root, ancestors);
    List<TreeNode> children = new ArrayList<>();
    source(root).ifPresent(children::add);
    dependsOn(root).ifPresent(children::add);
    history(root).ifPresent(children::add);
    children.addAll(
        groups.isEmpty() ? List.of(TreeNode.leaf("(no inventory: nothing applied yet)")) : groups);
    return new TreeNode(label, children);
  }

  /**
   * The source the Kustomization builds from (GitRepository, OCIRepository or ExternalArtifact),
   * with its Ready status and artifact revision; empty without a sourceRef.
   */
  private Optional<TreeNode> source(Kustomization ks) {
    SourceReference ref = ks.getSpec() == null ? null : ks.getSpec().sourceRef();
    if (ref == null || ref.name() == null) {
      return Optional.empty();
    }
    String kind = ref.kind() == null ? "GitRepository" : ref.kind().name();
    String ns =
        ref.namespace() == null || ref.namespace().isEmpty()
            ? ks.getMetadata().getNamespace()
            : ref.namespace();
    String label = "source " + kind + "/" + ns + "/" + ref.name();
    Optional<GenericKubernetesResource> object;
    try {
      object = live.get(GitRepository.GROUP + "/" + GitRepository.VERSION, kind, ns, ref.name());
    } catch (RuntimeException e) {
      return Optional.of(
          TreeNode.leaf(
              label + "  " + Status.Unknown + "  cannot read it: " + firstLine(e.getMessage())));
    }
    if (object.isEmpty()) {
      return Optional.of(TreeNode.leaf(label + "  " + Status.NotFound));
    }
    return Optional.of(TreeNode.leaf(label + "  " + sourceState(kind, object.get())));
  }

  /** A source's Ready status and artifact revision, read through its own type. */
  private String sourceState(String kind, GenericKubernetesResource object) {
    List<Condition> conditions;
    Artifact artifact;
    if (kind.equals(CapstanKind.OCI_REPOSITORY.kind())) {
      OCIRepositoryStatus status =
          serialization.convertValue(object, OCIRepository.class).getStatus();
      conditions = status == null ? null : status.conditions();
      artifact = status == null ? null : status.artifact();
    } else if (kind.equals("ExternalArtifact")) {
      ExternalArtifactStatus status =
          serialization.convertValue(object, ExternalArtifact.class).getStatus();
      conditions = status == null ? null : status.conditions();
      artifact = status == null ? null : status.artifact();
    } else {
      GitRepositoryStatus status =
          serialization.convertValue(object, GitRepository.class).getStatus();
      conditions = status == null ? null : status.conditions();
      artifact = status == null ? null : status.artifact();
    }
    String ready =
        conditions == null
            ? ""
            : conditions.stream()
                .filter(c -> ResourceView.READY.equals(c.getType()))
                .map(Condition::getStatus)
                .findFirst()
                .orElse("");
    String revision = artifact == null || artifact.revision() == null ? "" : artifact.revision();
    return "Ready="
        + (ready.isEmpty() ? "Unknown" : ready)
        + (revision.isEmpty() ? "" : "  " + revision);
  }

  /** The last reconciles (status.history), most recent first; empty when there are none. */
  private static Optional<TreeNode> history(Kustomization ks) {
    List<Snapshot> history = ks.getStatus() == null ? null : ks.getStatus().history();
    if (history == null || history.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new TreeNode(
            "last reconciles",
            history.stream().map(s -> TreeNode.leaf(HistoryText.line(s))).toList()));
  }

  /** What the Kustomization waits for, each with its live state; empty if it depends on nothing. */
  private Optional<TreeNode> dependsOn(Kustomization ks) {
    List<DependencyReference> refs =
        ks.getSpec() == null || ks.getSpec().dependsOn() == null
            ? List.of()
            : ks.getSpec().dependsOn();
    if (refs.isEmpty()) {
      return Optional.empty();
    }
    HealthEvaluator health = evaluatorFor(ks);
    String namespace = ks.getMetadata().getNamespace();
    List<TreeNode> nodes = new ArrayList<>();
    for (DependencyReference ref : refs) {
      String expr =
          ref.readyExpr() == null || ref.readyExpr().isBlank()
              ? ""
              : "  readyExpr '" + ref.readyExpr() + "'";
      nodes.add(TreeNode.leaf(dependency(ref, namespace, health) + expr));
    }
    return Optional.of(new TreeNode("depends on", nodes));
  }

  private String dependency(DependencyReference ref, String namespace, HealthEvaluator health) {
    String ns = ref.namespace() == null || ref.namespace().isEmpty() ? namespace : ref.namespace();
    boolean kustomization = DependencyReferences.isKustomization(ref);
    String apiVersion =
        kustomization ? Kustomization.GROUP + "/" + Kustomization.VERSION : ref.apiVersion();
    String kind = kustomization ? "Kustomization" : ref.kind();
    String label =
        kustomization
            ? "Kustomization/" + ns + "/" + ref.name()
            : DependencyReferences.object(ref, namespace).toString();
    Optional<GenericKubernetesResource> object;
    try {
      object = live.get(apiVersion, kind, ns, ref.name());
    } catch (RuntimeException e) {
      return label + "  " + Status.Unknown + "  cannot read it: " + firstLine(e.getMessage());
    }
    if (object.isEmpty()) {
      return label + "  " + Status.NotFound;
    }
    if (kustomization) {
      String ready =
          CapstanKind.KUSTOMIZATION
              .view(serialization.convertValue(object.get(), Kustomization.class))
              .conditionStatus(ResourceView.READY);
      return label + "  Ready=" + (ready.isEmpty() ? "Unknown" : ready);
    }
    return label + "  " + describe(health.status(object.get()));
  }

  private List<TreeNode> groups(Kustomization ks, Set<String> ancestors) {
    List<InventoryEntry> entries =
        ks.getStatus() == null
                || ks.getStatus().inventory() == null
                || ks.getStatus().inventory().entries() == null
            ? List.of()
            : ks.getStatus().inventory().entries();
    HealthEvaluator health = evaluatorFor(ks);
    Map<String, List<TreeNode>> byNamespace = new TreeMap<>();
    List<TreeNode> clusterScoped = new ArrayList<>();
    for (InventoryEntry entry : entries) {
      InventoryId id;
      try {
        id = InventoryId.parse(entry.id());
      } catch (IllegalArgumentException e) {
        clusterScoped.add(TreeNode.leaf("? " + e.getMessage()));
        continue;
      }
      TreeNode node = node(id, entry.v(), health, ancestors);
      (id.clusterScoped()
              ? clusterScoped
              : byNamespace.computeIfAbsent(id.namespace(), n -> new ArrayList<>()))
          .add(node);
    }
    List<TreeNode> groups = new ArrayList<>();
    if (!clusterScoped.isEmpty()) {
      groups.add(new TreeNode(CLUSTER_SCOPED, clusterScoped));
    }
    byNamespace.forEach((ns, nodes) -> groups.add(new TreeNode("namespace " + ns, nodes)));
    return groups;
  }

  private TreeNode node(
      InventoryId id, String version, HealthEvaluator health, Set<String> ancestors) {
    String label = id.kind() + "/" + id.name();
    Optional<GenericKubernetesResource> object;
    try {
      object =
          live.get(
              id.apiVersion(version == null ? "" : version), id.kind(), id.namespace(), id.name());
    } catch (RuntimeException e) {
      // One unreadable object (an API no longer served, no permission) must not hide the others.
      return TreeNode.leaf(
          label + "  " + Status.Unknown + "  cannot read it: " + firstLine(e.getMessage()));
    }
    if (object.isEmpty()) {
      return TreeNode.leaf(label + "  " + Status.NotFound);
    }
    String line = label + "  " + describe(health.status(object.get()));
    if (!isKustomization(id)) {
      return TreeNode.leaf(line);
    }
    String key = key(id.namespace(), id.name());
    if (!ancestors.add(key)) {
      return TreeNode.leaf(line + "  (cycle: it contains itself through the inventories above)");
    }
    Kustomization nested = serialization.convertValue(object.get(), Kustomization.class);
    TreeNode node = new TreeNode(line, groups(nested, ancestors));
    ancestors.remove(key);
    return node;
  }

  private HealthEvaluator evaluatorFor(Kustomization ks) {
    List<HealthCheckExpr> converted =
        HealthEvaluators.checksOf(ks.getSpec() == null ? null : ks.getSpec().healthCheckExprs());
    try {
      return HealthEvaluator.create(converted, library, clock);
    } catch (InvalidHealthCheckException e) {
      warnings.println(
          "warning: Kustomization "
              + ks.getMetadata().getName()
              + ": its healthCheckExprs are ignored here: "
              + e.getMessage());
      return HealthEvaluator.create(List.of(), library, clock);
    }
  }

  private static String describe(ResourceStatus status) {
    if (status.status() == Status.Current || status.message().isEmpty()) {
      return status.status().name();
    }
    return status.status() + "  " + firstLine(status.message());
  }

  private static boolean isKustomization(InventoryId id) {
    return "Kustomization".equals(id.kind()) && Kustomization.GROUP.equals(id.group());
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.lines().findFirst().orElse("");
  }
}
