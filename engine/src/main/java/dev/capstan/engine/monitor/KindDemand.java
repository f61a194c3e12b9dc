package dev.capstan.engine.monitor;

import dev.capstan.kube.GroupKind;
import dev.capstan.kube.ObjectRef;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many tracked inventories of each cluster need each kind watched, and the version to watch it
 * at (the first one asked for). Kept up to date as inventories come and go, so that the informers a
 * change needs are known without walking every object of every inventory: with a thousand
 * Kustomizations, that walk on each reconcile was most of the health monitor's time. Not
 * thread-safe: the monitor calls it under its own lock.
 */
final class KindDemand {

  private record Demand(String apiVersion, int users) {}

  private final Map<String, Map<GroupKind, Demand>> byCluster = new HashMap<>();

  /** The kinds of {@code objects}, each with the apiVersion of its first object. */
  static Map<GroupKind, String> kindsOf(List<ObjectRef> objects) {
    Map<GroupKind, String> kinds = new LinkedHashMap<>();
    objects.forEach(r -> kinds.putIfAbsent(r.groupKind(), r.apiVersion()));
    return kinds;
  }

  void add(String cluster, Map<GroupKind, String> kinds) {
    Map<GroupKind, Demand> demands = byCluster.computeIfAbsent(cluster, c -> new HashMap<>());
    kinds.forEach(
        (kind, apiVersion) ->
            demands.merge(
                kind,
                new Demand(apiVersion, 1),
                (had, one) -> new Demand(had.apiVersion(), had.users() + 1)));
  }

  void remove(String cluster, Map<GroupKind, String> kinds) {
    Map<GroupKind, Demand> demands = byCluster.get(cluster);
    if (demands == null) {
      return;
    }
    kinds
        .keySet()
        .forEach(
            kind ->
                demands.computeIfPresent(
                    kind,
                    (k, had) ->
                        had.users() == 1 ? null : new Demand(had.apiVersion(), had.users() - 1)));
    if (demands.isEmpty()) {
      byCluster.remove(cluster);
    }
  }

  /** The kinds some inventory of {@code cluster} needs, each with the version to watch. */
  Map<GroupKind, String> needed(String cluster) {
    Map<GroupKind, String> needed = new HashMap<>();
    byCluster.getOrDefault(cluster, Map.of()).forEach((k, d) -> needed.put(k, d.apiVersion()));
    return needed;
  }
}
