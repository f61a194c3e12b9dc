package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.FeatureGates;
import dev.capstan.testing.ClusterAccess;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Strict post-build substitution, Flux v1.9's default: a variable with neither a value nor a
 * default fails the build naming it, and nothing is applied; {@code
 * --feature-gates=StrictPostBuildSubstitutions=false} makes it the empty string again.
 */
class StrictSubstitutionIT extends EngineTestBase {
  private static final String MANIFEST =
      """
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: %s}
      data: {value: "${GREETING}-${WHO}-end", place: "${PLACE:=here}"}
      """;

  @Test
  void aVariableWithoutValueOrDefaultFailsTheBuildNamingIt() {
    git.commit(Map.of("strict/cm.yaml", MANIFEST.formatted("strict")));
    engine.gitRepository("repo", git.url());
    engine.kustomization(
        "strict", "repo", "./strict", "  postBuild: {substitute: {GREETING: hello}}\n");

    var failed =
        engine.awaitCondition(
            "strict", "Ready", Duration.ofSeconds(90), c -> "BuildFailed".equals(c.getReason()));
    assertEquals("False", failed.getStatus());
    assertTrue(
        failed.getMessage().contains("variable not set (strict mode): \"WHO\""),
        failed.getMessage());
    assertEquals(null, engine.client.configMaps().inNamespace(ns()).withName("strict").get());
  }

  @Test
  void withTheGateOffItBecomesEmptyAsBefore(ClusterAccess cluster) {
    git.commit(Map.of("lenient/cm.yaml", MANIFEST.formatted("lenient")));
    try (EngineFixture lenient =
        EngineFixture.start(
            EngineFixture.client(cluster.kubeconfig()),
            ns(),
            o ->
                o.withReconciling(
                    o.reconciling()
                        .withFeatureGates(
                            FeatureGates.parse(List.of("StrictPostBuildSubstitutions=false")))))) {
      lenient.gitRepository("repo-lenient", git.url());
      lenient.kustomization(
          "lenient", "repo-lenient", "./lenient", "  postBuild: {substitute: {GREETING: hello}}\n");
      lenient.awaitCondition("lenient", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
      ConfigMap applied = engine.client.configMaps().inNamespace(ns()).withName("lenient").get();
      assertEquals(Map.of("value", "hello--end", "place", "here"), applied.getData());
    }
  }
}
