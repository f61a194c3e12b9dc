package dev.capstan.applier.build;

import static dev.capstan.applier.build.BuildFixtures.buildError;
import static dev.capstan.applier.build.BuildFixtures.buildYaml;
import static dev.capstan.applier.build.BuildFixtures.caseRoot;
import static dev.capstan.applier.build.BuildFixtures.documents;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Kustomization's own settings and post-build substitution, on top of the files. */
class FluxOptionsTest {

  private static Map<String, Object> object(String yaml, String kind) {
    return documents(yaml).stream()
        .map(ObjectTree::map)
        .filter(o -> kind.equals(o.get("kind")))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void targetNamespacePrefixSuffixAndCommonMetadataApplyAfterTheFiles() {
    BuildOptions options =
        BuildOptions.none()
            .withTargetNamespace("staging")
            .withNamePrefix("s-")
            .withNameSuffix("-x")
            .withCommonMetadata(Map.of("env", "staging"), Map.of("owner", "team"));
    String yaml = buildYaml(caseRoot("generators"), ".", options);
    Map<String, Object> sts = object(yaml, "StatefulSet");
    assertEquals("s-db-x", ObjectTree.string(sts, "metadata", "name"));
    assertEquals("staging", ObjectTree.string(sts, "metadata", "namespace"));
    assertEquals("staging", ObjectTree.string(sts, "metadata", "labels", "env"));
    assertEquals("team", ObjectTree.string(sts, "metadata", "annotations", "owner"));
    // commonMetadata is not a selector label: the immutable selector stays as written
    assertEquals(Map.of("app", "db"), ObjectTree.get(sts, "spec", "selector", "matchLabels"));
    // generated names carry prefix, suffix and the hash of the final content, and references follow
    Map<String, Object> secret = object(yaml, "Secret");
    String secretName = ObjectTree.string(secret, "metadata", "name");
    assertTrue(secretName.matches("s-creds-x-[a-z0-9]{10}"), secretName);
    assertTrue(yaml.contains("name: " + secretName + "\n"));
    assertTrue(!yaml.contains("name: creds-"), yaml);
  }

  @Test
  void patchesAndImagesFromTheKustomization() {
    BuildOptions options =
        BuildOptions.none()
            .withPatches(
                List.of(
                    new KustomizePatch(
                        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n"
                            + "spec:\n  template:\n    spec:\n      containers:\n"
                            + "      - name: db\n        resources:\n          limits:\n            memory: 1Gi\n",
                        null),
                    new KustomizePatch(
                        "- op: add\n  path: /metadata/labels\n  value: {patched: \"yes\"}\n",
                        new PatchSelector(null, null, "ConfigMap", "settings", null, null, null))))
            .withImages(List.of(new ImageOverride("postgres", "mirror.example.com/postgres", "17", null)));
    String yaml = buildYaml(caseRoot("generators"), ".", options);
    Map<String, Object> sts = object(yaml, "StatefulSet");
    Map<String, Object> container =
        ObjectTree.map(ObjectTree.list(ObjectTree.get(sts, "spec", "template", "spec", "containers")).get(0));
    assertEquals("mirror.example.com/postgres:17", container.get("image"));
    assertEquals("1Gi", ObjectTree.string(container, "resources", "limits", "memory"));
    assertEquals(2, ObjectTree.list(container.get("env")).size(), "env merged, not replaced");
    assertTrue(yaml.contains("patched: \"yes\""), yaml);
  }

  @Test
  void substitutesVariablesFromValuesAndSourcesWithFluxPrecedence() {
    SubstitutionValues cluster =
        reference ->
            switch (reference.name()) {
              case "vars" -> Optional.of(Map.of("NAME", "from-configmap", "REPLICAS", "2"));
              case "secret-vars" -> Optional.of(Map.of("NAME", "from-secret"));
              default -> Optional.empty();
            };
    BuildOptions options =
        BuildOptions.none()
            .withPostBuild(
                Map.of("COUNT", "7"),
                List.of(
                    new SubstituteReference(SubstituteReference.Kind.CONFIG_MAP, "vars", false),
                    new SubstituteReference(SubstituteReference.Kind.SECRET, "secret-vars", false),
                    new SubstituteReference(SubstituteReference.Kind.CONFIG_MAP, "absent", true)),
                cluster);
    String yaml = buildYaml(caseRoot("plain"), "apps", options);
    Map<String, Object> config = object(yaml, "ConfigMap");
    assertEquals("hello from-secret", ObjectTree.string(config, "data", "greeting"));
    assertEquals("${NAME}", ObjectTree.string(config, "data", "escaped"));
    assertEquals("$NAME", ObjectTree.string(config, "data", "bare"));
    assertEquals("7", ObjectTree.string(config, "data", "count"));
    assertEquals(2, ObjectTree.get(object(yaml, "Deployment"), "spec", "replicas"), "numbers stay numbers");
    assertEquals(
        "${NOT_SUBSTITUTED}",
        ObjectTree.string(object(yaml, "Service"), "metadata", "annotations", "literal"),
        "objects annotated substitute: disabled are left alone");
  }

  @Test
  void defaultsApplyWhenVariablesAreUnset() {
    BuildOptions options = BuildOptions.none().withPostBuild(Map.of("NAME", "x"), List.of(), null);
    String yaml = buildYaml(caseRoot("plain"), "apps", options);
    assertEquals("3", ObjectTree.string(object(yaml, "ConfigMap"), "data", "count"));
    assertEquals(1, ObjectTree.get(object(yaml, "Deployment"), "spec", "replicas"));
  }

  @Test
  void anEmptyPostBuildStillAppliesDefaults() {
    BuildOptions options = BuildOptions.none().withPostBuild(Map.of(), List.of(), null);
    String yaml = buildYaml(caseRoot("plain"), "apps", options);
    assertEquals("3", ObjectTree.string(object(yaml, "ConfigMap"), "data", "count"));
    String untouched = buildYaml(caseRoot("plain"), "apps", BuildOptions.none());
    assertEquals("${COUNT:=3}", ObjectTree.string(object(untouched, "ConfigMap"), "data", "count"));
  }

  @Test
  void missingRequiredSubstitutionSourceIsAnError() {
    BuildOptions options =
        BuildOptions.none()
            .withPostBuild(
                Map.of(),
                List.of(new SubstituteReference(SubstituteReference.Kind.SECRET, "gone", false)),
                SubstitutionValues.none());
    BuildError error = buildError(caseRoot("plain"), "apps", options);
    assertEquals(BuildErrorKind.SUBSTITUTION, error.kind());
    assertTrue(error.describe().contains("Secret 'gone' not found"), error.describe());
  }

  @Test
  void resultIsFabric8ObjectsInApplyOrder() {
    BuildResult result = new ManifestBuilder().build(caseRoot("rbac"), ".", BuildOptions.none());
    List<GenericKubernetesResource> objects = ((BuildResult.Built) result).objects();
    assertEquals("Namespace", objects.get(0).getKind());
    assertEquals("CustomResourceDefinition", objects.get(1).getKind());
    assertEquals("team-a", objects.get(2).getMetadata().getNamespace());
  }
}
