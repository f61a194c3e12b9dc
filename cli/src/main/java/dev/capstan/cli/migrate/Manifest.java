package dev.capstan.cli.migrate;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;

/**
 * A Flux object or its Capstan twin as read from the cluster, with the fields a migration reads.
 */
record Manifest(FluxKind kind, GenericKubernetesResource object) {

  /** Set on a Flux object that the migration suspended: it was not suspended before. */
  static final String SUSPENDED_BY_MIGRATION = "migrate.capstan.dev/suspended";

  /** Set on a twin the migration created: the Flux object it came from, for a rollback. */
  static final String MIGRATED_FROM = "migrate.capstan.dev/from";

  String namespace() {
    return object.getMetadata().getNamespace();
  }

  String name() {
    return object.getMetadata().getName();
  }

  /** {@code Kind ns/name}, as the plan names an object. */
  String title() {
    return kind.kind + " " + namespace() + "/" + name();
  }

  Map<?, ?> spec() {
    return map(object.getAdditionalProperties().get("spec"));
  }

  Map<?, ?> status() {
    return map(object.getAdditionalProperties().get("status"));
  }

  boolean suspended() {
    return Boolean.TRUE.equals(spec().get("suspend"));
  }

  /** Suspended by its user, not by a migration that stopped half-way. */
  boolean suspendedByUser() {
    return suspended() && !annotations().containsKey(SUSPENDED_BY_MIGRATION);
  }

  Map<String, String> annotations() {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }

  /** The Ready condition's status ("True", "False", "Unknown"), "none" without one. */
  String ready() {
    Map<?, ?> condition = readyCondition();
    return condition.isEmpty() ? "none" : String.valueOf(condition.get("status"));
  }

  /** Ready's reason and message, for a report. */
  String readyMessage() {
    Map<?, ?> condition = readyCondition();
    return condition.isEmpty()
        ? "no Ready condition yet"
        : condition.get("reason") + ": " + condition.get("message");
  }

  /** Ready is True for the current generation. */
  boolean readyNow() {
    Object observed = status().get("observedGeneration");
    Long generation = object.getMetadata().getGeneration();
    boolean current =
        generation == null
            || (observed instanceof Number n && n.longValue() == generation.longValue());
    return current && "True".equals(ready());
  }

  /** The {@code {id, v}} entries of {@code status.inventory}, empty without one. */
  List<?> inventory() {
    return status().get("inventory") instanceof Map<?, ?> inventory
            && inventory.get("entries") instanceof List<?> entries
        ? entries
        : List.of();
  }

  private Map<?, ?> readyCondition() {
    if (status().get("conditions") instanceof List<?> conditions) {
      for (Object condition : conditions) {
        if (condition instanceof Map<?, ?> map && "Ready".equals(map.get("type"))) {
          return map;
        }
      }
    }
    return Map.of();
  }

  static Map<?, ?> map(Object value) {
    return value instanceof Map<?, ?> map ? map : Map.of();
  }
}
