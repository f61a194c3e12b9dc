package dev.capstan.ui;

import dev.capstan.api.kustomize.HealthCheckExpression;
import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.engine.kustomization.HealthEvaluators;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.cel.BuiltinLibrary;
import dev.capstan.health.cel.HealthCheckExpr;
import dev.capstan.health.cel.InvalidHealthCheckException;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.kube.ApiErrors;
import dev.capstan.kube.InventoryId;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a Kustomization's inventory with the user's client and groups it namespace → kind → object,
 * each object with the status the health module gives it under the Kustomization's own
 * healthCheckExprs (as the engine judges it). Bounded: at most {@value #MAX_OBJECTS} objects are
 * read. A Secret's data is dropped as soon as it is read.
 */
final class InventoryGroups {
  static final int MAX_OBJECTS = 300;
  static final String CLUSTER = "(cluster)";

  private final KubernetesClient client;
  private final BuiltinLibrary library;
  private final Clock clock;
  private List<HealthCheckExpr> lastExprs;
  private HealthEvaluator lastEvaluator;

  InventoryGroups(KubernetesClient client, BuiltinLibrary library, Clock clock) {
    this.client = client;
    this.library = library;
    this.clock = clock;
  }

  record Result(List<Details.NamespaceGroup> groups, String note) {}

  Result read(List<InventoryEntry> entries, List<HealthCheckExpression> expressions) {
    HealthEvaluator health;
    String exprNote = "";
    try {
      health = evaluator(expressions);
    } catch (InvalidHealthCheckException e) {
      health = HealthEvaluator.create(List.of(), library, clock);
      exprNote =
          "spec.healthCheckExprs do not compile ("
              + e.getMessage()
              + "): statuses use the built-in rules only. ";
    }
    Map<String, Map<String, List<Details.ObjectLine>>> tree = new TreeMap<>();
    int read = 0;
    for (InventoryEntry entry : entries) {
      if (read == MAX_OBJECTS) {
        break;
      }
      InventoryId id;
      try {
        id = InventoryId.parse(entry.id());
      } catch (IllegalArgumentException e) {
        continue;
      }
      read++;
      tree.computeIfAbsent(id.clusterScoped() ? CLUSTER : id.namespace(), ns -> new TreeMap<>())
          .computeIfAbsent(id.kind(), k -> new ArrayList<>())
          .add(line(id, entry.v() == null || entry.v().isEmpty() ? "v1" : entry.v(), health));
    }
    String note =
        entries.size() > read ? "showing " + read + " of " + entries.size() + " objects" : "";
    return new Result(groups(tree), (exprNote + note).trim());
  }

  /** The evaluator for these expressions, compiled again only when they change. */
  private synchronized HealthEvaluator evaluator(List<HealthCheckExpression> expressions) {
    List<HealthCheckExpr> exprs = HealthEvaluators.checksOf(expressions);
    if (!exprs.equals(lastExprs)) {
      lastEvaluator = HealthEvaluator.create(exprs, library, clock);
      lastExprs = exprs;
    }
    return lastEvaluator;
  }

  private Details.ObjectLine line(InventoryId id, String version, HealthEvaluator health) {
    try {
      var resources = client.genericKubernetesResources(id.apiVersion(version), id.kind());
      GenericKubernetesResource object =
          id.clusterScoped()
              ? resources.withName(id.name()).get()
              : resources.inNamespace(id.namespace()).withName(id.name()).get();
      if (object == null) {
        return new Details.ObjectLine(id.name(), "NotFound", "", "the object does not exist");
      }
      object.getAdditionalProperties().remove("data");
      object.getAdditionalProperties().remove("stringData");
      ResourceStatus status = health.status(object);
      return new Details.ObjectLine(
          id.name(), status.status().name(), status.reason(), status.message());
    } catch (KubernetesClientException e) {
      return new Details.ObjectLine(
          id.name(), "Unknown", "", "cannot read: " + ApiErrors.refusal(e));
    }
  }

  private static List<Details.NamespaceGroup> groups(
      Map<String, Map<String, List<Details.ObjectLine>>> tree) {
    List<Details.NamespaceGroup> groups = new ArrayList<>();
    tree.forEach(
        (ns, kinds) -> {
          List<Details.KindGroup> kindGroups = new ArrayList<>();
          kinds.forEach(
              (kind, objects) -> kindGroups.add(new Details.KindGroup(kind, List.copyOf(objects))));
          groups.add(new Details.NamespaceGroup(ns, kindGroups));
        });
    return groups;
  }
}
