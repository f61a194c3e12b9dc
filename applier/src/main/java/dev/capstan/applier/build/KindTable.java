package dev.capstan.applier.build;

import java.util.Set;

/** What the build needs to know about built-in Kubernetes kinds without asking an API server. */
final class KindTable {
  private KindTable() {}

  private static final Set<String> CLUSTER_SCOPED =
      Set.of(
          "Namespace", "Node", "PersistentVolume", "ClusterRole", "ClusterRoleBinding",
          "CustomResourceDefinition", "StorageClass", "PriorityClass", "IngressClass",
          "RuntimeClass", "CSIDriver", "CSINode", "VolumeAttachment", "APIService",
          "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
          "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding",
          "CertificateSigningRequest", "PodSecurityPolicy", "ComponentStatus",
          "FlowSchema", "PriorityLevelConfiguration");

  /** API groups whose kinds have strategic-merge metadata; anything else is a custom resource. */
  private static final Set<String> BUILT_IN_GROUPS =
      Set.of(
          "", "apps", "batch", "autoscaling", "policy", "networking.k8s.io",
          "rbac.authorization.k8s.io", "storage.k8s.io", "scheduling.k8s.io", "node.k8s.io",
          "discovery.k8s.io", "coordination.k8s.io", "admissionregistration.k8s.io",
          "apiextensions.k8s.io", "apiregistration.k8s.io", "certificates.k8s.io",
          "events.k8s.io", "flowcontrol.apiserver.k8s.io", "resource.k8s.io", "extensions");

  static boolean isClusterScoped(Resource resource) {
    return BUILT_IN_GROUPS.contains(resource.group()) && CLUSTER_SCOPED.contains(resource.kind());
  }

  static boolean isBuiltIn(Resource resource) {
    return BUILT_IN_GROUPS.contains(resource.group());
  }

  /** Namespaces and CRDs keep their names: prefixes and suffixes are not applied to them. */
  static boolean keepsName(Resource resource) {
    return resource.kind().equals("Namespace") && resource.group().isEmpty()
        || resource.kind().equals("CustomResourceDefinition");
  }
}
