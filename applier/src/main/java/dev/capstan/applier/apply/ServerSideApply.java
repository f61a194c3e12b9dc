package dev.capstan.applier.apply;

import dev.capstan.applier.CapstanMetadata;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.api.model.Status;
import java.util.concurrent.CompletionException;

/**
 * Single-object calls to the API server: server-side apply (field manager {@code capstan},
 * conflicts forced so Capstan takes ownership of what it applies), dry-run, get and delete.
 */
public final class ServerSideApply {

  private final KubernetesClient client;

  public ServerSideApply(KubernetesClient client) {
    this.client = client;
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
   * creations need only to know that the object was accepted, and turning a thousand answers
   * into objects costs a short-lived command more time than sending them.
   */
  public Answer applyUnread(DesiredObject desired, boolean dryRun) throws RejectedException {
    HttpClient http = client.getHttpClient();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(applyUri(desired, dryRun))
            .method("PATCH", "application/apply-patch+yaml", json(desired))
            .build();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).join();
    } catch (CompletionException e) {
      throw new KubernetesClientException(
          "request to the API server failed: " + e.getCause().getMessage(), e.getCause());
    }
    if (!response.isSuccessful()) {
      throw new RejectedException(Rejection.of(errorOf(response)));
    }
    return new Answer(response.code() == 201, response.body());
  }

  /** The resource version in an answer of {@link #applyUnread}. */
  public String resourceVersionOf(Answer answer) {
    GenericKubernetesResource object =
        client.getKubernetesSerialization().unmarshal(answer.body(), GenericKubernetesResource.class);
    return object.getMetadata() == null ? null : object.getMetadata().getResourceVersion();
  }

  private String json(DesiredObject desired) {
    return client.getKubernetesSerialization().asJson(desired.object());
  }

  private String applyUri(DesiredObject desired, boolean dryRun) {
    ResourceType type = desired.type();
    StringBuilder uri = new StringBuilder(client.getMasterUrl().toString());
    if (uri.charAt(uri.length() - 1) != '/') {
      uri.append('/');
    }
    uri.append(type.group().isEmpty() ? "api/" + type.version() : "apis/" + type.apiVersion());
    if (type.namespaced()) {
      uri.append("/namespaces/").append(desired.ref().namespace());
    }
    uri.append('/').append(type.plural()).append('/').append(desired.ref().name());
    uri.append("?fieldManager=").append(CapstanMetadata.FIELD_MANAGER).append("&force=true");
    if (dryRun) {
      uri.append("&dryRun=All");
    }
    return uri.toString();
  }

  private KubernetesClientException errorOf(HttpResponse<String> response) {
    String body = response.body() == null ? "" : response.body();
    try {
      Status status = client.getKubernetesSerialization().unmarshal(body, Status.class);
      if (status != null && status.getMessage() != null) {
        return new KubernetesClientException(status);
      }
    } catch (RuntimeException notStatus) {
      // not a Status document: report the HTTP answer itself below
    }
    return new KubernetesClientException(
        "HTTP " + response.code() + " from the API server: " + body.lines().findFirst().orElse(""),
        response.code(),
        null);
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
