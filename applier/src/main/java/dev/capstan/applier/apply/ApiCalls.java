package dev.capstan.applier.apply;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;

/**
 * Requests made with the client's HTTP client directly, for what the resource DSL cannot say: an
 * answer left unread, or a LIST of metadata only. Failures become the exception the DSL would
 * throw, carrying the API server's Status.
 */
final class ApiCalls {

  private final KubernetesClient client;

  ApiCalls(KubernetesClient client) {
    this.client = client;
  }

  HttpRequest.Builder request(String url) {
    return client.getHttpClient().newHttpRequestBuilder().uri(url);
  }

  /** Sends and waits; an answer other than 2xx is thrown as the API server's error. */
  HttpResponse<String> send(HttpRequest request) {
    HttpClient http = client.getHttpClient();
    HttpResponse<String> response;
    try {
      response = http.sendAsync(request, String.class).join();
    } catch (CompletionException e) {
      throw new KubernetesClientException(
          "request to the API server failed: " + e.getCause().getMessage(), e.getCause());
    }
    if (!response.isSuccessful()) {
      throw errorOf(response);
    }
    return response;
  }

  /** The URL of a collection ({@code name} null) or of one object. */
  String url(ResourceType type, String namespace, String name) {
    StringBuilder url = new StringBuilder(client.getMasterUrl().toString());
    if (url.charAt(url.length() - 1) != '/') {
      url.append('/');
    }
    url.append(type.group().isEmpty() ? "api/" + type.version() : "apis/" + type.apiVersion());
    if (type.namespaced() && namespace != null) {
      url.append("/namespaces/").append(namespace);
    }
    url.append('/').append(type.plural());
    if (name != null) {
      url.append('/').append(name);
    }
    return url.toString();
  }

  /** A {@code labelSelector} query value requiring every label. */
  static String labelSelector(Map<String, String> labels) {
    String selector =
        labels.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(","));
    return URLEncoder.encode(selector, StandardCharsets.UTF_8);
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
}
