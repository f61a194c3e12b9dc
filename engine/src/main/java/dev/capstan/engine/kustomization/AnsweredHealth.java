package dev.capstan.engine.kustomization;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.wait.Lookup;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.kube.ObjectRef;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The health of an applied set as the API server answered the applies that wrote it. It is known
 * only when every object of the set was written by this apply: an unchanged object was not read
 * whole, so its health is left to the health monitor's watches.
 */
final class AnsweredHealth {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final ObjectMapper mapper = new ObjectMapper();

  Optional<AggregateHealth> of(
      List<ObjectRef> objects, ApplyResult applied, HealthEvaluator evaluator) {
    Map<ObjectRef, Map<String, Object>> answered = new HashMap<>();
    for (ObjectRef ref : objects) {
      Optional<Map<String, Object>> object = applied.answer(ref).flatMap(this::parsed);
      if (object.isEmpty()) {
        return Optional.empty();
      }
      answered.put(ref, object.get());
    }
    return Optional.of(
        ResourceManager.health(objects, ref -> Lookup.found(answered.get(ref)), evaluator));
  }

  private Optional<Map<String, Object>> parsed(String json) {
    try {
      return Optional.of(mapper.readValue(json, MAP));
    } catch (JsonProcessingException e) {
      return Optional.empty(); // not what an API server answers: left to the watches
    }
  }
}
