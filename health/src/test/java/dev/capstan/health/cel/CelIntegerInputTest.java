package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.health.Fixtures;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import dev.capstan.kube.BoundedYaml;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Objects read by Jackson or fabric8 carry small whole numbers as {@code Integer} and some decimals
 * as {@code Float}; CEL has overloads only for {@code Long} and {@code Double}. These objects must
 * evaluate exactly like ones holding {@code Long}s.
 */
class CelIntegerInputTest {
  private static final String YAML =
      """
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: w, namespace: default, generation: 3}
      spec: {replicas: 2, ratio: 0.5}
      status:
        observedGeneration: 3
        replicas: 2
        conditions:
        - {type: Ready, status: 'True', observedGeneration: 3}
      """;

  /** Arithmetic, comparison, conversion and comprehension over whole numbers. */
  private static final HealthEvaluator EVALUATOR =
      HealthEvaluator.create(
          List.of(
              new HealthCheckExpr(
                  "example.com/v1",
                  "Widget",
                  "status.replicas >= 1 && string(status.replicas) == '2' && status.replicas + 1 =="
                      + " 3 && spec.replicas == status.replicas && spec.ratio < 1.0 &&"
                      + " status.conditions.exists(c, c.observedGeneration == metadata.generation)"
                      + " && status.replicas in [1, 2] && int(spec.replicas) == 2",
                  "",
                  "")),
          BuiltinLibrary.none(),
          Fixtures.CLOCK);

  @Test
  void fabric8GenericResourceParsedFromYamlIsEvaluated() {
    HasMetadata resource = new KubernetesSerialization().unmarshal(YAML);
    assertInstanceOf(GenericKubernetesResource.class, resource);
    ResourceStatus status = EVALUATOR.status(resource);
    assertEquals(Status.Current, status.status(), status::message);
  }

  @Test
  void plainJacksonMapIsEvaluated() throws Exception {
    Map<String, Object> object =
        new ObjectMapper()
            .convertValue(
                new BoundedYaml().readOne(YAML), new TypeReference<Map<String, Object>>() {});
    assertInstanceOf(Integer.class, ((Map<?, ?>) object.get("status")).get("replicas"));
    ResourceStatus status = EVALUATOR.status(object);
    assertEquals(Status.Current, status.status(), status::message);
  }

  @Test
  void handBuiltMapWithIntegersAndFloatsIsEvaluated() {
    Map<String, Object> condition = new HashMap<>();
    condition.put("type", "Ready");
    condition.put("status", "True");
    condition.put("observedGeneration", Integer.valueOf(3));
    Map<String, Object> object = new HashMap<>();
    object.put("apiVersion", "example.com/v1");
    object.put("kind", "Widget");
    object.put("metadata", Map.of("name", "w", "generation", Short.valueOf((short) 3)));
    object.put("spec", Map.of("replicas", Integer.valueOf(2), "ratio", Float.valueOf(0.5f)));
    object.put("status", Map.of("replicas", Integer.valueOf(2), "conditions", List.of(condition)));
    ResourceStatus status = EVALUATOR.status(object);
    assertEquals(Status.Current, status.status(), status::message);
  }

  @Test
  void viewsConvertOnReadWithoutCopying() {
    Map<String, Object> status = new HashMap<>();
    status.put("replicas", 1);
    @SuppressWarnings("unchecked")
    Map<Object, Object> view = (Map<Object, Object>) CelInput.adapt(status);
    assertEquals(1L, view.get("replicas"));
    status.put("replicas", 7);
    assertEquals(7L, view.get("replicas"), "a view reads the object in place");
    assertEquals(Map.of("replicas", 7L), view);
    assertEquals(List.of(1L, 2.5d), CelInput.adapt(List.of(1, 2.5f)));
    Long unchanged = 5L;
    assertSame(unchanged, CelInput.adapt(unchanged));
  }
}
