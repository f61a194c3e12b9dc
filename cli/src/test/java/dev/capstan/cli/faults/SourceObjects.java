package dev.capstan.cli.faults;

import dev.capstan.api.common.ReconciledStatus;
import dev.capstan.api.common.RecordResource;
import dev.capstan.api.source.SourceStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;

/**
 * The fault bench's objects in its namespace as both sides (Git and registry) make and read them:
 * created from YAML, a fetch asked for, a source's status read.
 */
final class SourceObjects {
  private final KubernetesClient admin;
  private final String namespace;
  private final Clock clock;

  SourceObjects(KubernetesClient admin, String namespace, Clock clock) {
    this.admin = admin;
    this.namespace = namespace;
    this.clock = clock;
  }

  <T extends HasMetadata> void create(Class<T> type, String yaml) {
    T object =
        admin
            .resources(type)
            .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)))
            .item();
    admin.resource(object).create();
  }

  /**
   * Asks for a fetch of source {@code name} now, as a push webhook would: a merge patch without a
   * resourceVersion, so the engine's status writes in between cannot make it conflict. Returns the
   * request's value, which the source's status echoes once it has handled it.
   */
  String requestFetch(Class<? extends HasMetadata> kind, String name) {
    String requestedAt = clock.instant().toString();
    admin
        .resources(kind)
        .inNamespace(namespace)
        .withName(name)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"reconcile.capstan.dev/requestedAt\":\""
                + requestedAt
                + "\"}}}");
    return requestedAt;
  }

  /** Source {@code name}'s status now, if it exists and has one. */
  <R extends RecordResource<?, ? extends SourceStatus>> Optional<SourceStatus> status(
      Class<R> kind, String name) {
    R source = admin.resources(kind).inNamespace(namespace).withName(name).get();
    return source == null ? Optional.empty() : Optional.ofNullable(source.getStatus());
  }

  /** Source {@code name}'s Ready condition now, if it has one. */
  <R extends RecordResource<?, ? extends SourceStatus>> Optional<Condition> ready(
      Class<R> kind, String name) {
    return status(kind, name).flatMap(SourceObjects::readyOf);
  }

  private static Optional<Condition> readyOf(ReconciledStatus status) {
    return status.conditions() == null
        ? Optional.empty()
        : status.conditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst();
  }
}
