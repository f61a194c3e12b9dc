package dev.capstan.engine.monitor;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.Arrays;

/**
 * Asks the API server for the metadata of objects only: each LIST answers a {@code
 * PartialObjectMetadataList} and each watch event carries a {@code PartialObjectMetadata}, with no
 * {@code data}, {@code spec} or {@code status}. Every kind, built-in or custom, can be read so. No
 * plain JSON is offered besides: an API server that could not answer so refuses (406) rather than
 * sending whole objects.
 */
final class MetadataOnlyRequests implements Interceptor {
  static final String LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
  static final String WATCH = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";

  private static final String NAME = "capstan-metadata-only";

  /**
   * A client with the settings and the JSON reading of {@code engine} whose every request asks for
   * metadata only; it has its own connections, and is closed apart from the engine's.
   */
  static KubernetesClient client(KubernetesClient engine) {
    return new KubernetesClientBuilder()
        .withConfig(engine.getConfiguration())
        .withKubernetesSerialization(engine.getKubernetesSerialization())
        .withHttpClientBuilderConsumer(
            b -> b.addOrReplaceInterceptor(NAME, new MetadataOnlyRequests()))
        .build();
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    builder.setHeader("Accept", watches(request) ? WATCH : LIST);
  }

  private static boolean watches(HttpRequest request) {
    String query = request.uri().getRawQuery();
    return query != null
        && Arrays.stream(query.split("&"))
            .anyMatch(p -> p.equals("watch=true") || p.equals("watch=1"));
  }
}
