package dev.capstan.applier.it;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A client on the same cluster that records every request it sends, as "METHOD path?query". */
final class RequestLog {

  private final List<String> requests = new CopyOnWriteArrayList<>();

  KubernetesClient client(KubernetesClient admin) {
    return new KubernetesClientBuilder()
        .withConfig(admin.getConfiguration())
        .withHttpClientBuilderConsumer(
            b ->
                b.addOrReplaceInterceptor(
                    "request-log",
                    new Interceptor() {
                      @Override
                      public void before(
                          BasicBuilder builder, HttpRequest request, RequestTags tags) {
                        String query = request.uri().getRawQuery();
                        requests.add(
                            request.method()
                                + " "
                                + request.uri().getPath()
                                + (query == null ? "" : "?" + query));
                      }
                    }))
        .build();
  }

  void clear() {
    requests.clear();
  }

  List<String> writes() {
    return requests.stream().filter(r -> !r.startsWith("GET ")).toList();
  }

  List<String> all() {
    return List.copyOf(requests);
  }
}
