package dev.capstan.engine.dependencies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.engine.core.NamespacedName;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class DependencyCheckTest {
  private static final NamespacedName KEY = new NamespacedName("ns", "infra");
  private static final String REV = "main@sha1:aaaa";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Function<Kustomization, Map<String, Object>> AS_MAP =
      k -> MAPPER.convertValue(k, new TypeReference<Map<String, Object>>() {});

  private static Kustomization ks(long generation, Long observed, String ready, String applied) {
    Kustomization k = new Kustomization();
    k.setMetadata(
        new ObjectMetaBuilder()
            .withName("infra")
            .withNamespace("ns")
            .withGeneration(generation)
            .build());
    k.setStatus(
        new KustomizationStatus(
            observed,
            ready == null
                ? List.of()
                : List.of(
                    new ConditionBuilder()
                        .withType("Ready")
                        .withStatus(ready)
                        .withReason("x")
                        .build()),
            applied,
            applied,
            null,
            null));
    return k;
  }

  private static DependencyReadiness check(
      Kustomization dep, Optional<String> revision, ReadyExpression expr) {
    return DependencyCheck.check(
        KEY, Optional.ofNullable(dep), revision, expr, ks(1, 1L, "True", REV), AS_MAP);
  }

  @Test
  void readyAtCurrentGenerationAndRevision() {
    assertTrue(check(ks(2, 2L, "True", REV), Optional.of(REV), null).isReady());
  }

  @Test
  void notReadyForEachMissingPiece() {
    assertEquals("dependency 'ns/infra' not found", check(null, Optional.of(REV), null).reason());
    assertFalse(check(ks(3, 2L, "True", REV), Optional.of(REV), null).isReady(), "old generation");
    assertFalse(check(ks(2, 2L, "False", REV), Optional.of(REV), null).isReady(), "Ready False");
    assertFalse(check(ks(2, 2L, null, REV), Optional.of(REV), null).isReady(), "no Ready");
    DependencyReadiness stale = check(ks(2, 2L, "True", REV), Optional.of("main@sha1:bbbb"), null);
    assertFalse(stale.isReady());
    assertTrue(stale.reason().contains("main@sha1:bbbb not applied yet"), stale.reason());
    assertFalse(check(ks(2, 2L, "True", REV), Optional.empty(), null).isReady(), "no artifact");
  }

  @Test
  void readyExprReplacesTheDefaultRule() {
    ReadyExpression generationOnly =
        ReadyExpression.compile("dep.metadata.generation == dep.status.observedGeneration");
    assertTrue(check(ks(2, 2L, "False", REV), Optional.empty(), generationOnly).isReady());
    DependencyReadiness no = check(ks(3, 2L, "True", REV), Optional.of(REV), generationOnly);
    assertFalse(no.isReady());
    assertTrue(no.reason().contains("is false"), no.reason());
    ReadyExpression usesSelf = ReadyExpression.compile("self.metadata.name == 'infra'");
    assertTrue(check(ks(1, 1L, "False", REV), Optional.empty(), usesSelf).isReady());
  }

  @Test
  void readyExprErrorsAreReportedNotThrown() {
    ReadyExpression missingField = ReadyExpression.compile("dep.status.nope == 'x'");
    DependencyReadiness result = check(ks(1, 1L, "True", REV), Optional.of(REV), missingField);
    assertFalse(result.isReady());
    assertTrue(result.reason().contains("readyExpr"), result.reason());
  }

  @Test
  void aReadyExprThatWouldExhaustMemoryStopsAtTheSizeLimit() {
    String chain = "'xxxxxxxxxx'" + ".replace('x', 'xxxxxxxxxx')".repeat(9);
    ReadyExpression bomb =
        ReadyExpression.compile(chain + ".size() > 0 && dep.metadata.name != ''");
    DependencyReadiness result =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10), () -> check(ks(1, 1L, "True", REV), Optional.of(REV), bomb));
    assertFalse(result.isReady());
    assertTrue(result.reason().contains("size limit exceeded"), result.reason());
  }

  @Test
  void invalidExpressionsFailAtCompileNamingTheExpression() {
    var error =
        assertThrows(
            ReadyExpression.InvalidExpressionException.class,
            () -> ReadyExpression.compile("dep.status.("));
    assertTrue(error.getMessage().contains("dep.status.("), error.getMessage());
    assertThrows(
        ReadyExpression.InvalidExpressionException.class,
        () -> ReadyExpression.compile("'not a bool'"));
    assertThrows(
        ReadyExpression.InvalidExpressionException.class,
        () -> ReadyExpression.compile("other.x == 1"));
  }
}
