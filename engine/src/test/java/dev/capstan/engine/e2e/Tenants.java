package dev.capstan.engine.e2e;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.UUID;

/**
 * Tenants of the multi-tenancy tests: service accounts with namespace-scoped rights, extra
 * namespaces.
 */
final class Tenants {
  private Tenants() {}

  /**
   * A ServiceAccount in {@code namespace} allowed to do anything with ConfigMaps of that namespace,
   * and nothing else.
   */
  static void configMapTenant(KubernetesClient client, String namespace, String name) {
    tenant(
        client,
        namespace,
        name,
        rule("configmaps", "get", "list", "watch", "create", "update", "patch", "delete"));
  }

  /**
   * Like {@link #configMapTenant}, and also allowed to write Secrets of that namespace (the applier
   * lists what is live) but not to {@code get} one.
   */
  static void secretWritingTenant(KubernetesClient client, String namespace, String name) {
    tenant(
        client,
        namespace,
        name,
        rule("configmaps", "get", "list", "watch", "create", "update", "patch", "delete"),
        rule("secrets", "list", "create", "update", "patch", "delete"));
  }

  private static PolicyRule rule(String coreResource, String... verbs) {
    return new PolicyRuleBuilder()
        .withApiGroups("")
        .withResources(coreResource)
        .withVerbs(verbs)
        .build();
  }

  private static void tenant(
      KubernetesClient client, String namespace, String name, PolicyRule... rules) {
    client
        .resource(
            new ServiceAccountBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .build())
        .serverSideApply();
    client
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withRules(rules)
                .build())
        .serverSideApply();
    client
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", name)
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(name)
                .withNamespace(namespace)
                .endSubject()
                .build())
        .serverSideApply();
  }

  /** Creates a namespace with a random name; the caller deletes it. */
  static String namespace(KubernetesClient client, String prefix) {
    String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    client
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  static String secretIn(String namespace, String name) {
    return """
    apiVersion: v1
    kind: Secret
    metadata: {name: %s, namespace: %s}
    stringData: {token: "not for the engine to tell"}
    """
        .formatted(name, namespace);
  }

  static String configMapIn(String namespace, String name) {
    return """
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: %s, namespace: %s}
    data: {value: "1"}
    """
        .formatted(name, namespace);
  }
}
