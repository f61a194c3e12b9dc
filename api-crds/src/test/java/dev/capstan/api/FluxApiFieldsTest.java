package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.RepoRoot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Every field of Flux's Kustomization v1 API (kustomize-controller v1.9.4: api/v1 and the
 * fluxcd/pkg types it uses) is in Capstan's generated CRD, as written to deploy/crds.
 */
class FluxApiFieldsTest {

  /** Flux's fields, as paths into the schema ({@code []} steps into a list's items). */
  private static final List<String> FLUX_FIELDS =
      List.of(
          "spec.buildMetadata",
          "spec.commonMetadata.annotations",
          "spec.commonMetadata.labels",
          "spec.components",
          "spec.decryption.provider",
          "spec.decryption.secretRef.name",
          "spec.decryption.serviceAccountName",
          "spec.deletionPolicy",
          "spec.dependsOn[].name",
          "spec.dependsOn[].namespace",
          "spec.dependsOn[].readyExpr",
          "spec.force",
          "spec.healthCheckExprs[].apiVersion",
          "spec.healthCheckExprs[].current",
          "spec.healthCheckExprs[].failed",
          "spec.healthCheckExprs[].inProgress",
          "spec.healthCheckExprs[].kind",
          "spec.healthChecks[].apiVersion",
          "spec.healthChecks[].kind",
          "spec.healthChecks[].name",
          "spec.healthChecks[].namespace",
          "spec.ignore[].paths",
          "spec.ignore[].target.annotationSelector",
          "spec.ignore[].target.group",
          "spec.ignore[].target.kind",
          "spec.ignore[].target.labelSelector",
          "spec.ignore[].target.name",
          "spec.ignore[].target.namespace",
          "spec.ignore[].target.version",
          "spec.ignoreMissingComponents",
          "spec.images[].digest",
          "spec.images[].name",
          "spec.images[].newName",
          "spec.images[].newTag",
          "spec.interval",
          "spec.kubeConfig.configMapRef.name",
          "spec.kubeConfig.secretRef.key",
          "spec.kubeConfig.secretRef.name",
          "spec.namePrefix",
          "spec.nameSuffix",
          "spec.patches[].patch",
          "spec.patches[].target.annotationSelector",
          "spec.patches[].target.group",
          "spec.patches[].target.kind",
          "spec.patches[].target.labelSelector",
          "spec.patches[].target.name",
          "spec.patches[].target.namespace",
          "spec.patches[].target.version",
          "spec.path",
          "spec.postBuild.substitute",
          "spec.postBuild.substituteFrom[].kind",
          "spec.postBuild.substituteFrom[].name",
          "spec.postBuild.substituteFrom[].optional",
          "spec.postBuild.substituteStrategy",
          "spec.prune",
          "spec.retryInterval",
          "spec.serviceAccountName",
          "spec.sourceRef.apiVersion",
          "spec.sourceRef.kind",
          "spec.sourceRef.name",
          "spec.sourceRef.namespace",
          "spec.suspend",
          "spec.targetNamespace",
          "spec.timeout",
          "spec.wait",
          "status.conditions",
          "status.history[].digest",
          "status.history[].firstReconciled",
          "status.history[].lastReconciled",
          "status.history[].lastReconciledDuration",
          "status.history[].lastReconciledStatus",
          "status.history[].metadata",
          "status.history[].totalReconciliations",
          "status.inventory.entries[].id",
          "status.inventory.entries[].v",
          "status.lastAppliedOriginRevision",
          "status.lastAppliedRevision",
          "status.lastAttemptedRevision",
          "status.lastHandledReconcileAt",
          "status.observedGeneration");

  @Test
  void everyFieldOfFluxsKustomizationIsInTheCrd() throws IOException {
    Map<String, Object> schema = schema("kustomize.capstan.dev_kustomizations.yaml");
    List<String> missing = new ArrayList<>();
    for (String field : FLUX_FIELDS) {
      if (!has(schema, field)) {
        missing.add(field);
      }
    }
    assertEquals(List.of(), missing);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> schema(String file) throws IOException {
    Path crd = RepoRoot.find().resolve("deploy/crds").resolve(file);
    try (InputStream in = Files.newInputStream(crd)) {
      Map<String, Object> doc = new Yaml(new LoaderOptions()).load(in);
      Map<String, Object> spec = (Map<String, Object>) doc.get("spec");
      Map<String, Object> version = ((List<Map<String, Object>>) spec.get("versions")).get(0);
      return (Map<String, Object>)
          ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
    }
  }

  @SuppressWarnings("unchecked")
  private static boolean has(Map<String, Object> schema, String path) {
    Map<String, Object> node = schema;
    for (String step : path.split("\\.")) {
      boolean list = step.endsWith("[]");
      Map<String, Object> properties = (Map<String, Object>) node.get("properties");
      Object child =
          properties == null
              ? null
              : properties.get(list ? step.substring(0, step.length() - 2) : step);
      if (!(child instanceof Map<?, ?>)) {
        return false;
      }
      node = (Map<String, Object>) child;
      if (list) {
        node = (Map<String, Object>) node.get("items");
        if (node == null) {
          return false;
        }
      }
    }
    return true;
  }
}
