package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
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
        List.of(Stage.DEFINITIONS, Stage.CLUSTER, Stage.NAMESPACED), Arrays.asList(Stage.values()));
  }
}
