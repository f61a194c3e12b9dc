package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.TestObjects;
import dev.capstan.applier.common.Owner;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RevisionValidatorTest {

  private static final Owner OWNER = new Owner("k", "flux-system");

  private static Optional<ResourceType> served(String apiVersion, String kind) {
    return switch (apiVersion + "/" + kind) {
      case "v1/ConfigMap" ->
          Optional.of(new ResourceType("", "v1", "ConfigMap", "configmaps", true));
      case "apiextensions.k8s.io/v1/CustomResourceDefinition" ->
          Optional.of(
              new ResourceType(
                  "apiextensions.k8s.io",
                  "v1",
                  "CustomResourceDefinition",
                  "customresourcedefinitions",
                  false));
      default -> Optional.empty();
    };
  }

  private static final String CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: widgets.example.com}
      spec:
        group: example.com
        scope: Cluster
        names: {kind: Widget, plural: widgets}
        versions: [{name: v1, served: true, storage: true}]
      """;

  @Test
  void kindsDefinedByTheRevisionsCrdsAwaitTheirCrd() {
    var widget =
        TestObjects.yaml("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n");
    var result =
        RevisionValidator.validate(
            List.of(TestObjects.yaml(CRD), widget), RevisionValidatorTest::served, OWNER, "d");
    assertTrue(result.valid(), result.problems().toString());
    DesiredObject w = result.desired().get(1);
    assertEquals("widgets", w.type().plural());
    assertEquals(false, w.type().namespaced());
    assertEquals(Set.of(w.ref()), result.awaitingCrd());
  }

  @Test
  void unknownKindMissingFieldsAndDuplicatesAreEachReported() {
    var objects =
        List.of(
            TestObjects.yaml(
                "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: a}\n"),
            TestObjects.yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: a}\n"),
            TestObjects.yaml("kind: ConfigMap\nmetadata: {name: x}\n"),
            TestObjects.configMap("a", "dup", "k", "1"),
            TestObjects.configMap("a", "dup", "k", "2"),
            TestObjects.configMap("a", "fine", "k", "1"));
    var result = RevisionValidator.validate(objects, RevisionValidatorTest::served, OWNER, "d");
    List<String> reasons =
        result.problems().stream().map(p -> p.ref() + " -> " + p.reason()).toList();
    assertEquals(4, reasons.size(), reasons.toString());
    assertTrue(
        reasons.get(0).startsWith("Gadget/a/g -> unknown kind Gadget in example.com/v1"),
        reasons.get(0));
    assertTrue(
        reasons.get(1).contains("object #2 (ConfigMap <no name>) has no metadata.name"),
        reasons.get(1));
    assertTrue(
        reasons.get(2).contains("object #3 (ConfigMap x) has no apiVersion"), reasons.get(2));
    assertTrue(reasons.get(3).startsWith("ConfigMap/a/dup -> defined 2 times"), reasons.get(3));
  }

  @Test
  void defaultNamespaceMakesTwoObjectsTheSame() {
    var explicit = TestObjects.configMap("d", "c", "k", "1");
    var implicit = TestObjects.yaml("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    var result =
        RevisionValidator.validate(
            List.of(explicit, implicit), RevisionValidatorTest::served, OWNER, "d");
    assertEquals(1, result.problems().size());
  }
}
