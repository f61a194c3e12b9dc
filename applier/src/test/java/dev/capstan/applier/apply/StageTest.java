package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.kube.GroupKind;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StageTest {

  @Test
  void definitionsThenClusterScopedThenNamespaced() {
    var crd =
        new ResourceType(
            "apiextensions.k8s.io",
            "v1",
            "CustomResourceDefinition",
            "customresourcedefinitions",
            false);
    var ns = new ResourceType("", "v1", "Namespace", "namespaces", false);
    var clusterRole =
        new ResourceType("rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", false);
    var deployment = new ResourceType("apps", "v1", "Deployment", "deployments", true);
    assertEquals(Stage.DEFINITIONS, Stage.of(crd));
    assertEquals(Stage.DEFINITIONS, Stage.of(ns));
    assertEquals(Stage.CLUSTER, Stage.of(clusterRole));
    assertEquals(Stage.NAMESPACED, Stage.of(deployment));
    assertEquals(
        List.of(Stage.DEFINITIONS, Stage.CUSTOM, Stage.CLUSTER, Stage.NAMESPACED),
        Arrays.asList(Stage.values()));
  }

  @Test
  void customKindsHaveAStageAfterTheDefinitionsWhichTheyCannotLeave() {
    var role = new ResourceType("rbac.authorization.k8s.io", "v1", "Role", "roles", true);
    var issuer =
        new ResourceType("cert-manager.io", "v1", "ClusterIssuer", "clusterissuers", false);
    var ns = new ResourceType("", "v1", "Namespace", "namespaces", false);
    var custom =
        Set.of(
            new GroupKind("rbac.authorization.k8s.io", "Role"),
            new GroupKind("cert-manager.io", "ClusterIssuer"),
            new GroupKind("", "Namespace"));

    assertEquals(Stage.CUSTOM, Stage.of(role, custom));
    assertEquals(Stage.CUSTOM, Stage.of(issuer, custom));
    assertEquals(Stage.DEFINITIONS, Stage.of(ns, custom));
    assertEquals(Stage.NAMESPACED, Stage.of(role, Set.of(new GroupKind("", "Role"))));
  }
}
