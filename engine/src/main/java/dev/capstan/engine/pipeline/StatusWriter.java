package dev.capstan.engine.pipeline;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.engine.NamespacedName;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The one place statuses are written: server-side apply of the status subresource with its own
 * field manager, so status writes never mix with the objects' own (field manager {@code
 * capstan}). Writes of one object are serialized, and a status equal to the one already there is
 * not written at all.
 */
public final class StatusWriter {
  /** Field manager of every status write. */
  public static final String FIELD_MANAGER = "capstan-status";

  private static final int CONFLICT_ATTEMPTS = 5;

  private final KubernetesClient client;
  private final Map<String, Object> locks = new ConcurrentHashMap<>();

  public StatusWriter(KubernetesClient client) {
    this.client = client;
  }

  /** Writes a Kustomization's status unless it is unchanged; returns the status now in place. */
  public KustomizationStatus write(Kustomization current, KustomizationStatus next) {
    if (Objects.equals(current.getStatus(), next)) {
      return next;
    }
    synchronized (lock(current)) {
      apply(current, next, null);
    }
    current.setStatus(next);
    return next;
  }

  /** Writes a GitRepository's status unless it is unchanged. */
  public void write(GitRepository current, GitRepositoryStatus next) {
    if (Objects.equals(current.getStatus(), next)) {
      return;
    }
    synchronized (lock(current)) {
      apply(current, next, null);
    }
    current.setStatus(next);
  }

  /**
   * Reads the Kustomization, changes its status, and writes it back if it changed, guarded by
   * its resourceVersion so that a concurrent reconcile's status is never overwritten with a stale
   * one. Returns false when the Kustomization does not exist.
   */
  public boolean update(NamespacedName key, Function<Kustomization, KustomizationStatus> change) {
    for (int attempt = 1; ; attempt++) {
      Optional<Kustomization> live = Optional.ofNullable(
          client.resources(Kustomization.class).inNamespace(key.namespace()).withName(key.name()).get());
      if (live.isEmpty()) {
        return false;
      }
      KustomizationStatus next = change.apply(live.get());
      if (Objects.equals(live.get().getStatus(), next)) {
        return true;
      }
      try {
        synchronized (lock(live.get())) {
          apply(live.get(), next, live.get().getMetadata().getResourceVersion());
        }
        return true;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= CONFLICT_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private void apply(HasMetadata object, Object status, String resourceVersion) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", object.getMetadata().getName());
    metadata.put("namespace", object.getMetadata().getNamespace());
    if (resourceVersion != null) {
      metadata.put("resourceVersion", resourceVersion);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("apiVersion", object.getApiVersion());
    body.put("kind", object.getKind());
    body.put("metadata", metadata);
    body.put("status", status);
    PatchContext context =
        new PatchContext.Builder()
            .withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager(FIELD_MANAGER)
            .withForce(true)
            .build();
    String json = client.getKubernetesSerialization().asJson(body);
    @SuppressWarnings("unchecked")
    Class<HasMetadata> type = (Class<HasMetadata>) object.getClass();
    client
        .resources(type)
        .inNamespace(object.getMetadata().getNamespace())
        .withName(object.getMetadata().getName())
        .subresource("status")
        .patch(context, json);
  }

  private Object lock(HasMetadata object) {
    return locks.computeIfAbsent(
        object.getKind() + "/" + object.getMetadata().getNamespace() + "/" + object.getMetadata().getName(),
        k -> new Object());
  }
}
