package dev.capstan.applier.build;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Finds the pod specs inside the built-in workload kinds, and the containers inside a pod spec. */
final class PodSpecs {
  private PodSpecs() {}

  private static final Set<String> TEMPLATE_KINDS =
      Set.of("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "ReplicationController");
  private static final List<String> CONTAINER_LISTS =
      List.of("containers", "initContainers", "ephemeralContainers");

  static List<Map<String, Object>> of(Resource resource) {
    Map<String, Object> object = resource.object();
    Object spec =
        switch (resource.kind()) {
          case "Pod" -> ObjectTree.get(object, "spec");
          case "PodTemplate" -> ObjectTree.get(object, "template", "spec");
          case "CronJob" -> ObjectTree.get(object, "spec", "jobTemplate", "spec", "template", "spec");
          default ->
              TEMPLATE_KINDS.contains(resource.kind())
                  ? ObjectTree.get(object, "spec", "template", "spec")
                  : null;
        };
    Map<String, Object> map = ObjectTree.map(spec);
    return map == null || !KindTable.isBuiltIn(resource) ? List.of() : List.of(map);
  }

  static List<Map<String, Object>> containers(Map<String, Object> podSpec) {
    List<Map<String, Object>> containers = new ArrayList<>();
    for (String field : CONTAINER_LISTS) {
      maps(podSpec.get(field)).forEach(containers::add);
    }
    return containers;
  }

  /** The items of a list that are maps; empty for anything else. */
  static List<Map<String, Object>> maps(Object list) {
    List<Object> items = ObjectTree.list(list);
    if (items == null) {
      return List.of();
    }
    List<Map<String, Object>> maps = new ArrayList<>();
    for (Object item : items) {
      Map<String, Object> map = ObjectTree.map(item);
      if (map != null) {
        maps.add(map);
      }
    }
    return maps;
  }
}
