package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.testing.LocalApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Reconcile action against a loopback stand-in for the API server that serves one
 * Kustomization, team/app, and its source, platform/repo, and records what it is asked to patch:
 * under {@code --no-cross-namespace-refs} nothing is patched, and the user is told why.
 */
class ActionsTest {
  private static final String APP =
      """
      {"apiVersion":"kustomize.capstan.dev/v1","kind":"Kustomization",
       "metadata":{"name":"app","namespace":"team","resourceVersion":"3"},
       "spec":{"interval":"10m","path":"./","prune":true,
               "sourceRef":{"kind":"GitRepository","name":"repo","namespace":"platform"}}}
      """;

  private static final String REPO =
      """
      {"apiVersion":"source.capstan.dev/v1","kind":"GitRepository",
       "metadata":{"name":"repo","namespace":"platform","resourceVersion":"4"},
       "spec":{"interval":"10m","url":"https://git.example/repo"}}
      """;

  private final List<String> patched = new CopyOnWriteArrayList<>();
  private LocalApiServer api;
  private KubernetesClient client;

  @BeforeEach
  void start() throws IOException {
    api = LocalApiServer.start(this::answer);
    client = api.client();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void underTheLockdownASourceInAnotherNamespaceIsNotPatchedAndTheUserIsToldWhy() {
    PageAction.Result result =
        new Actions(client, new ReferenceRules(true), Clock.systemUTC())
            .run(PageAction.RECONCILE, "team", "app");

    assertFalse(result.ok());
    assertEquals(
        "reconcile not requested: cross-namespace references are not allowed: sourceRef"
            + " GitRepository 'platform/repo' is not in namespace 'team'",
        result.message());
    assertEquals(List.of(), patched, "nothing is patched, the Kustomization neither");
  }

  @Test
  void withoutTheLockdownTheSourceAndTheKustomizationAreAskedToReconcile() {
    PageAction.Result result =
        new Actions(client, new ReferenceRules(false), Clock.systemUTC())
            .run(PageAction.RECONCILE, "team", "app");

    assertTrue(result.ok(), result.message());
    assertEquals(
        List.of(
            "/apis/source.capstan.dev/v1/namespaces/platform/gitrepositories/repo",
            "/apis/kustomize.capstan.dev/v1/namespaces/team/kustomizations/app"),
        patched);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String json;
    if (path.equals("/apis/kustomize.capstan.dev/v1/namespaces/team/kustomizations/app")) {
      json = APP;
    } else if (path.equals(
        "/apis/source.capstan.dev/v1/namespaces/platform/gitrepositories/repo")) {
      json = REPO;
    } else {
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
      return;
    }
    if ("PATCH".equals(exchange.getRequestMethod())) {
      patched.add(path);
    }
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
