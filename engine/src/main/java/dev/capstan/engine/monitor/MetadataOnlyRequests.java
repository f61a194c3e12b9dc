package dev.capstan.engine.monitor;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.kube.TokenRefresh;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Arrays;
import java.util.List;

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
   * A client with the settings of {@code engine} whose every request asks for metadata only; it has
   * its own connections on the event loops of {@code http}, and is closed apart from the engine's.
   */
  static KubernetesClient client(KubernetesClient engine, HttpClient.Factory http) {
    return new KubernetesClientBuilder()
        .withHttpClientFactory(http)
        .withConfig(engine.getConfiguration())
        .withKubernetesSerialization(serialization())
        .withHttpClientBuilderConsumer(
            TokenRefresh.forConfig(engine.getConfiguration())
                .andThen(b -> b.addOrReplaceInterceptor(NAME, new MetadataOnlyRequests())))
        .build();
  }

  /**
   * The JSON reading of the answers: an API server writes the items of an empty {@code
   * PartialObjectMetadataList} as {@code null}, which is read as no items, as for a list of whole
   * objects (the informer takes a list without items for a defect).
   */
  private static KubernetesSerialization serialization() {
    ObjectMapper mapper = new ObjectMapper();
    mapper.configOverride(List.class).setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY));
    return new KubernetesSerialization(mapper, true);
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
