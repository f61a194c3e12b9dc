package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.health.RepoRoot;
import dev.capstan.kube.BoundedYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The Kustomization CRD bounds every CEL field to the length the health module compiles, so that
 * the API server refuses what the engine would refuse anyway.
 */
class CrdExpressionLengthTest {
  private static final String CRD = "deploy/crds/kustomize.capstan.dev_kustomizations.yaml";

  @Test
  void everyCelFieldOfTheKustomizationCrdHasTheCompileLengthLimitAsMaxLength() throws Exception {
    Path crd = RepoRoot.find().orElseThrow().resolve(CRD);
    JsonNode versions =
        new ObjectMapper()
            .valueToTree(new BoundedYaml().readOne(Files.readString(crd)))
            .at("/spec/versions");
    assertFalse(versions.isEmpty(), "no versions in " + crd);
    int limit = CelLimits.DEFAULT.maxExpressionLength();
    for (JsonNode version : versions) {
      JsonNode spec = version.at("/schema/openAPIV3Schema/properties/spec/properties");
      JsonNode exprs = spec.at("/healthCheckExprs/items/properties");
      for (String field : new String[] {"current", "inProgress", "failed"}) {
        assertEquals(
            limit, exprs.at("/" + field + "/maxLength").asInt(), "healthCheckExprs[]." + field);
      }
      assertEquals(
          limit, spec.at("/dependsOn/items/properties/readyExpr/maxLength").asInt(), "readyExpr");
    }
  }
}
