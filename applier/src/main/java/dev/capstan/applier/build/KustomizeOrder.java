package dev.capstan.applier.build;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order {@code kubectl kustomize} prints objects in: kinds others depend on first (Namespace,
 * ResourceQuota, StorageClass, CustomResourceDefinition, ServiceAccount, RBAC, ConfigMap, Secret,
 * Service, ...), webhook configurations last, everything else in between; ties broken by
 * group/version/kind, then namespace, then name.
 */
final class KustomizeOrder implements Comparator<Resource> {
  private static final List<String> FIRST =
      List.of(
          "Namespace", "ResourceQuota", "StorageClass", "CustomResourceDefinition",
          "ServiceAccount", "PodSecurityPolicy", "Role", "ClusterRole", "RoleBinding",
          "ClusterRoleBinding", "ConfigMap", "Secret", "Endpoints", "Service", "LimitRange",
          "PriorityClass", "PersistentVolume", "PersistentVolumeClaim", "Deployment",
          "StatefulSet", "CronJob", "PodDisruptionBudget");
  private static final List<String> LAST =
      List.of("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration");

  private static final Map<String, Integer> RANK = new HashMap<>();

  static {
    for (int i = 0; i < FIRST.size(); i++) {
      RANK.put(FIRST.get(i), i - FIRST.size());
    }
    for (int i = 0; i < LAST.size(); i++) {
      RANK.put(LAST.get(i), i + 1);
    }
  }

  @Override
  public int compare(Resource a, Resource b) {
    int byRank = Integer.compare(rank(a), rank(b));
    if (byRank != 0) {
      return byRank;
    }
    int byType = gvk(a).compareTo(gvk(b));
    if (byType != 0) {
      return byType;
    }
    int byNamespace = a.namespace().compareTo(b.namespace());
    return byNamespace != 0 ? byNamespace : a.name().compareTo(b.name());
  }

  private static int rank(Resource resource) {
    return RANK.getOrDefault(resource.kind(), 0);
  }

  /** Kustomize's spelling of a type, with placeholders for an empty group or version. */
  private static String gvk(Resource resource) {
    String group = resource.group().isEmpty() ? "~G" : resource.group();
    String version = resource.version().isEmpty() ? "~V" : resource.version();
    return group + "_" + version + "_" + resource.kind();
  }
}
