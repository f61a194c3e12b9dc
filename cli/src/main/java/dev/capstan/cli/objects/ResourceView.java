package dev.capstan.cli.objects;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Optional;

/**
 * What the commands read from a Kustomization or a source (GitRepository, OCIRepository), in one
 * shape for all.
 *
 * @param kind {@code Kustomization}, {@code GitRepository} or {@code OCIRepository}
 * @param revision the last applied revision (Kustomization) or the artifact's revision (a source);
 *     empty when there is none
 * @param url the URL of a source; empty for a Kustomization
 * @param wide the extra columns of {@code capstan get -o wide}, in order
 */
record ResourceView(
    String kind,
    String namespace,
    String name,
    String creationTimestamp,
    long generation,
    Long observedGeneration,
    List<Condition> conditions,
    String revision,
    String lastHandledReconcileAt,
    boolean suspended,
    String url,
    List<Column> wide) {

  /** One extra column and this object's value in it. */
  record Column(String header, String value) {}

  static final String READY = "Ready";
  static final String HEALTHY = "Healthy";
  static final String STALLED = "Stalled";

  ResourceView {
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
    revision = revision == null ? "" : revision;
    lastHandledReconcileAt = lastHandledReconcileAt == null ? "" : lastHandledReconcileAt;
    url = url == null ? "" : url;
    wide = wide == null ? List.of() : List.copyOf(wide);
  }

  Optional<Condition> condition(String type) {
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** The status of a condition (True, False, Unknown), or empty when the condition is absent. */
  String conditionStatus(String type) {
    return condition(type).map(Condition::getStatus).orElse("");
  }

  /** {@code Kind/namespace/name}. */
  String display() {
    return kind + "/" + namespace + "/" + name;
  }
}
