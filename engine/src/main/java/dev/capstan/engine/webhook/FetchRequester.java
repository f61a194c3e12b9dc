package dev.capstan.engine.webhook;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks the controller to fetch the GitRepositories a receiver names now, with a {@link
 * ReconcileRequest} as {@code capstan reconcile} makes it.
 */
final class FetchRequester {

  /** What one request achieved: the objects annotated and the selectors that matched nothing. */
  record Outcome(List<String> requested, List<String> missing) {}

  private final KubernetesClient client;
  private final Clock clock;

  FetchRequester(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /**
   * Annotates every GitRepository the selectors name; API failures other than not-found propagate.
   */
  Outcome request(List<ResourceSelector> selectors) {
    String patch =
        client.getKubernetesSerialization().asJson(ReconcileRequest.at(clock).mergePatch());
    List<String> requested = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (ResourceSelector selector : selectors) {
      List<String> names =
          selector.name() != null
              ? List.of(selector.name())
              : client
                  .resources(GitRepository.class)
                  .inNamespace(selector.namespace())
                  .withLabels(selector.matchLabels())
                  .list()
                  .getItems()
                  .stream()
                  .map(r -> r.getMetadata().getName())
                  .toList();
      if (names.isEmpty()) {
        missing.add(selector.toString());
      }
      for (String name : names) {
        if (annotate(selector.namespace(), name, patch)) {
          requested.add(selector.namespace() + "/" + name);
        } else {
          missing.add("GitRepository " + selector.namespace() + "/" + name);
        }
      }
    }
    return new Outcome(requested, missing);
  }

  private boolean annotate(String namespace, String name, String patch) {
    try {
      client
          .resources(GitRepository.class)
          .inNamespace(namespace)
          .withName(name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }
}
