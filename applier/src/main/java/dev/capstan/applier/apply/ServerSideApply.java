package dev.capstan.applier.apply;

import dev.capstan.applier.common.CapstanMetadata;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Single-object calls to the API server: server-side apply (field manager {@code capstan},
 * conflicts forced so Capstan takes ownership of what it applies), dry-run, get and delete.
 */
public final class ServerSideApply {

  private static final int TAKEOVER_ATTEMPTS = 3;

  private final KubernetesClient client;
  private final ApiCalls api;

  public ServerSideApply(KubernetesClient client) {
    this.client = client;
    this.api = new ApiCalls(client);
  }

  public GenericKubernetesResource apply(DesiredObject desired, boolean dryRun)
      throws RejectedException {
    try {
      Resource<GenericKubernetesResource> resource = resource(desired);
      var writable = dryRun ? resource.dryRun() : resource;
      return writable
          .fieldManager(CapstanMetadata.FIELD_MANAGER)
          .forceConflicts()
          .serverSideApply();
    } catch (KubernetesClientException e) {
      throw new RejectedException(Rejection.of(e));
    }
  }

  /** The API server's answer to an apply, unread: whether it created the object, and the JSON. */
  public record Answer(boolean created, String body) {}

  /**
   * Server-side apply that returns the API server's answer unread, as JSON text: dry-runs and
   * creations need only to know that the object was accepted, and turning a thousand answers into
   * objects costs a short-lived command more time than sending them.
   */
  public Answer applyUnread(DesiredObject desired, boolean dryRun) throws RejectedException {
    String url =
        api.url(desired.type(), desired.ref().namespace(), desired.ref().name())
            + "?fieldManager="
            + CapstanMetadata.FIELD_MANAGER
            + "&force=true"
            + (dryRun ? "&dryRun=All" : "");
    HttpRequest request =
        api.request(url).method("PATCH", "application/apply-patch+yaml", desired.json()).build();
    try {
      HttpResponse<String> response = api.send(request);
      return new Answer(response.code() == 201, response.body());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 0) {
        throw e; // no answer at all: the caller treats it as a transient failure
      }
      throw new RejectedException(Rejection.of(e));
    }
  }

  /** The resource version in an answer of {@link #applyUnread}. */
  public String resourceVersionOf(Answer answer) {
    GenericKubernetesResource object =
        client
            .getKubernetesSerialization()
            .unmarshal(answer.body(), GenericKubernetesResource.class);
    return object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
  }

  /**
   * Takes over, on the live object (read afresh), the fields of the managers {@code policy}
   * overrides: a JSON patch of its managedFields, guarded by its resourceVersion, read and tried
   * again when the object changed in between. Nothing happens when it is gone or has none of them.
   */
  public void takeOver(DesiredObject desired, ApplyPolicy policy) throws RejectedException {
    for (int attempt = 1; ; attempt++) {
      GenericKubernetesResource live = get(desired);
      if (live == null) {
        return;
      }
      Optional<List<ManagedFieldsEntry>> entries =
          ManagedFieldsTakeover.of(live.getMetadata().getManagedFields(), policy);
      if (entries.isEmpty()) {
        return;
      }
      List<Map<String, Object>> patch =
          ManagedFieldsTakeover.guardedReplacement(
              live.getMetadata().getResourceVersion(), entries.get());
      try {
        resource(desired)
            .patch(
                PatchContext.of(PatchType.JSON), client.getKubernetesSerialization().asJson(patch));
        return;
      } catch (KubernetesClientException e) {
        boolean changedMeanwhile = e.getCode() == 409 || e.getCode() == 422;
        if (!changedMeanwhile || attempt >= TAKEOVER_ATTEMPTS) {
          throw new RejectedException(Rejection.of(e));
        }
      }
    }
  }

  public GenericKubernetesResource get(DesiredObject desired) {
    return resource(desired).get();
  }

  /** Deletes in the background; returns false when the object was already gone. */
  public boolean delete(DesiredObject desired) throws RejectedException {
    try {
      return !resource(desired)
          .withPropagationPolicy(DeletionPropagation.BACKGROUND)
          .delete()
          .isEmpty();
    } catch (KubernetesClientException e) {
      throw new RejectedException(Rejection.of(e));
    }
  }

  private Resource<GenericKubernetesResource> resource(DesiredObject desired) {
    var resources = client.genericKubernetesResources(desired.type().context());
    var scoped =
        desired.type().namespaced() ? resources.inNamespace(desired.ref().namespace()) : resources;
    return scoped.resource(desired.object());
  }
}
