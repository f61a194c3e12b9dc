package dev.capstan.applier.build;

import static dev.capstan.applier.build.BuildFixtures.buildError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of bad input gives one clear error naming the file (and line where there is one). */
class BadInputTest {
  @TempDir Path root;

  private void write(String path, String text) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private BuildError error() {
    return buildError(root, ".", BuildOptions.none());
  }

  @Test
  void malformedYamlNamesFileAndLine() throws IOException {
    write("app/ok.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n");
    write("app/broken.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\ndata: {}\n");
    BuildError error = buildError(root, "app", BuildOptions.none());
    assertEquals(BuildErrorKind.MALFORMED_YAML, error.kind());
    assertEquals("app/broken.yaml", error.file());
    assertTrue(error.line() >= 4, error.describe());
    assertTrue(error.describe().startsWith("app/broken.yaml:" + error.line() + ": malformed YAML"));
  }

  @Test
  void missingResourceFile() throws IOException {
    write("kustomization.yaml", "resources:\n- deployment.yaml\n");
    BuildError error = error();
    assertEquals(BuildErrorKind.MISSING_RESOURCE, error.kind());
    assertEquals("kustomization.yaml:2: 'deployment.yaml' does not exist", error.describe());
  }

  @Test
  void unknownKustomizationFieldIsRefusedWithItsLine() throws IOException {
    write("kustomization.yaml", "resources: []\n\nhelmCharts:\n- name: x\n");
    BuildError error = error();
    assertEquals(BuildErrorKind.UNSUPPORTED_FIELD, error.kind());
    assertEquals("kustomization.yaml:3: unknown or unsupported field 'helmCharts'", error.describe());
  }

  @Test
  void unknownNestedFieldIsRefused() throws IOException {
    write("kustomization.yaml", "configMapGenerator:\n- name: x\n  literal: [a=b]\n");
    assertEquals(
        "unknown or unsupported field 'configMapGenerator[0].literal'", error().message());
  }

  @Test
  void resourcesOutsideTheArtifactRootAreRejected() throws IOException {
    write("kustomization.yaml", "resources:\n- ../../etc/passwd\n");
    BuildError error = error();
    assertEquals(BuildErrorKind.OUTSIDE_ROOT, error.kind());
    assertTrue(error.message().contains("outside the artifact root"));
  }

  @Test
  void symbolicLinksOutOfTheRootAreRejected(@TempDir Path outside) throws IOException {
    Files.writeString(outside.resolve("secret.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
    Files.createSymbolicLink(root.resolve("link.yaml"), outside.resolve("secret.yaml"));
    write("kustomization.yaml", "resources:\n- link.yaml\n");
    assertEquals(BuildErrorKind.OUTSIDE_ROOT, error().kind());
  }

  @Test
  void remoteResourcesAreRejected() throws IOException {
    write("kustomization.yaml", "resources:\n- https://github.com/example/repo//base\n");
    assertEquals(BuildErrorKind.OUTSIDE_ROOT, error().kind());
  }

  @Test
  void patchNamingAnAbsentObjectFailsLikeKustomize() throws IOException {
    write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n");
    write(
        "kustomization.yaml",
        "resources: [cm.yaml]\npatches:\n- patch: |\n    apiVersion: v1\n    kind: ConfigMap\n"
            + "    metadata:\n      name: b\n    data: {x: y}\n");
    BuildError error = error();
    assertEquals(BuildErrorKind.PATCH_TARGET_NOT_FOUND, error.kind());
    assertTrue(error.message().contains("ConfigMap/b"), error.describe());
  }

  @Test
  void patchWithASelectorMatchingNothingIsNotAnError() throws IOException {
    write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n");
    write(
        "kustomization.yaml",
        "resources: [cm.yaml]\npatches:\n- target: {kind: Deployment}\n"
            + "  patch: '[{\"op\": \"add\", \"path\": \"/x\", \"value\": 1}]'\n");
    BuildResult result = new ManifestBuilder().build(root, ".", BuildOptions.none());
    assertTrue(result instanceof BuildResult.Built, result.toString());
  }

  @Test
  void substitutionSyntaxErrorNamesTheObject() throws IOException {
    write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: ${BROKEN\n");
    BuildError error =
        buildError(root, ".", BuildOptions.none().withPostBuild(Map.of("A", "1"), List.of(), null));
    assertEquals(BuildErrorKind.SUBSTITUTION, error.kind());
    assertEquals("cm.yaml", error.file());
    assertTrue(error.message().contains("ConfigMap/a"), error.message());
    assertTrue(error.message().contains("missing closing brace"), error.message());
  }

  @Test
  void invalidVariableNameIsRefused() throws IOException {
    write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n");
    BuildError error =
        buildError(root, ".", BuildOptions.none().withPostBuild(Map.of("bad-name", "1"), List.of(), null));
    assertTrue(error.message().contains("'bad-name' is invalid"), error.message());
  }

  @Test
  void documentWithoutNameInAKustomizationResource() throws IOException {
    write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Secret\n");
    write("kustomization.yaml", "resources: [cm.yaml]\n");
    BuildError error = error();
    assertEquals(BuildErrorKind.INVALID_OBJECT, error.kind());
    assertEquals("cm.yaml:6: Secret has no metadata.name", error.describe());
  }

  @Test
  void duplicateObjectsNameBothPlaces() throws IOException {
    write("a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: same\n");
    write("b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: same\n");
    BuildError error = error();
    assertEquals(BuildErrorKind.DUPLICATE_OBJECT, error.kind());
    assertEquals("b.yaml:1: ConfigMap/same is already defined in a.yaml:1", error.describe());
  }

  @Test
  void secretLiteralValuesNeverAppearInErrors() throws IOException {
    write("kustomization.yaml", "secretGenerator:\n- name: s\n  literals:\n  - password\n");
    BuildError error = error();
    assertEquals(BuildErrorKind.INVALID_GENERATOR, error.kind());
    write("kustomization.yaml", "secretGenerator:\n- name: s\n  literals:\n  - bad key=hunter2\n");
    assertFalse(error().describe().contains("hunter2"), error().describe());
  }

  @Test
  void flowSkipsFilesThatAreNotObjectsInAPlainDirectory() throws IOException {
    write("values.yaml", "replicaCount: 3\n");
    write("list.yaml", "- a\n- b\n");
    write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n");
    BuildResult result = new ManifestBuilder().build(root, ".", BuildOptions.none());
    assertEquals(1, ((BuildResult.Built) result).objects().size());
  }
}
