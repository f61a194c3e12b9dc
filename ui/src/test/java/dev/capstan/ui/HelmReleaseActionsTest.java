package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.kustomization.ReferenceRules;
import dev.capstan.testing.LocalApiServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reconcile, suspend and resume on a HelmRelease, against a loopback stand-in for the API server
 * that serves team/web (running) and team/paused (suspended) and records every patch it is sent:
 * each action is one JSON merge patch of the HelmRelease alone, and its chart's source is never
 * asked to fetch.
 */
class HelmReleaseActionsTest {
  private static final String PATH = "/apis/helm.capstan.dev/v2/namespaces/team/helmreleases/";
  private static final Instant NOW = Instant.parse("2026-03-01T10:15:30Z");

  private static final String RELEASE =
      """
      {"apiVersion":"helm.capstan.dev/v2","kind":"HelmRelease",
       "metadata":{"name":"%s","namespace":"team","resourceVersion":"7"},
       "spec":{"interval":"10m","suspend":%s,
               "chartRef":{"kind":"OCIRepository","name":"podinfo"}}}
      """;

  private final ObjectMapper json = new ObjectMapper();
  private final List<Patch> patched = new CopyOnWriteArrayList<>();
  private volatile boolean forbidPatches;
  private LocalApiServer api;
  private Actions actions;

  private record Patch(String path, String contentType, Map<?, ?> body) {}

  @BeforeEach
  void start() throws IOException {
    api = LocalApiServer.start(this::answer);
    actions =
        new Actions(api.client(), new ReferenceRules(false), Clock.fixed(NOW, ZoneOffset.UTC));
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void reconcileSetsTheRequestAnnotationOnTheHelmReleaseOnly() {
    PageAction.Result result = run(PageAction.RECONCILE, "web");

    assertTrue(result.ok(), result.message());
    assertEquals("reconcile requested for HelmRelease team/web", result.message());
    assertEquals(
        List.of(
            new Patch(
                PATH + "web",
                "application/merge-patch+json",
                Map.of(
                    "metadata",
                    Map.of("annotations", Map.of(ReconcileRequest.ANNOTATION, NOW.toString()))))),
        patched,
        "the HelmRelease alone, not the OCIRepository its chart comes from");
  }

  @Test
  void suspendSetsSpecSuspendAndNothingElse() {
    PageAction.Result result = run(PageAction.SUSPEND, "web");

    assertTrue(result.ok(), result.message());
    assertEquals("HelmRelease team/web suspended", result.message());
    assertEquals(
        List.of(
            new Patch(
                PATH + "web",
                "application/merge-patch+json",
                Map.of("spec", Map.of("suspend", true)))),
        patched);
  }

  @Test
  void resumeClearsSpecSuspendAndRequestsAReconcileInOnePatch() {
    PageAction.Result result = run(PageAction.RESUME, "paused");

    assertTrue(result.ok(), result.message());
    assertEquals("HelmRelease team/paused resumed; reconcile requested", result.message());
    assertEquals(
        List.of(
            new Patch(
                PATH + "paused",
                "application/merge-patch+json",
                Map.of(
                    "spec",
                    Map.of("suspend", false),
                    "metadata",
                    Map.of("annotations", Map.of(ReconcileRequest.ANNOTATION, NOW.toString()))))),
        patched);
  }

  @Test
  void aSuspendedHelmReleaseIsNotAskedToReconcile() {
    PageAction.Result result = run(PageAction.RECONCILE, "paused");

    assertFalse(result.ok());
    assertEquals("HelmRelease team/paused is suspended: resume it first", result.message());
    assertEquals(List.of(), patched);
  }

  @Test
  void aHelmReleaseThatIsGoneIsSaidNotFound() {
    PageAction.Result result = run(PageAction.RECONCILE, "gone");

    assertFalse(result.ok());
    assertEquals("HelmRelease team/gone not found", result.message());
    assertEquals(List.of(), patched);
  }

  @Test
  void aPatchTheUsersRightsForbidShowsTheApiServersReason() {
    forbidPatches = true;

    PageAction.Result result = run(PageAction.SUSPEND, "web");

    assertFalse(result.ok());
    assertTrue(result.message().contains("cannot patch resource"), result.message());
    assertFalse(result.message().contains("at dev.capstan"), "no stack trace: " + result.message());
  }

  private PageAction.Result run(PageAction action, String name) {
    return actions.run(HelmRelease.class, action, "team", name);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String name = path.startsWith(PATH) ? path.substring(PATH.length()) : "";
    if (!name.equals("web") && !name.equals("paused")) {
      send(exchange, 404, status(404, "NotFound", "helmreleases " + name + " not found"));
      return;
    }
    if ("PATCH".equals(exchange.getRequestMethod())) {
      if (forbidPatches) {
        send(
            exchange,
            403,
            status(
                403,
                "Forbidden",
                "helmreleases.helm.capstan.dev web is forbidden: User viewer cannot patch"
                    + " resource helmreleases in API group helm.capstan.dev"));
        return;
      }
      patched.add(
          new Patch(
              path,
              exchange.getRequestHeaders().getFirst("Content-Type"),
              json.readValue(exchange.getRequestBody(), Map.class)));
    }
    send(exchange, 200, RELEASE.formatted(name, name.equals("paused")));
  }

  private static String status(int code, String reason, String message) {
    return """
    {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"%s","code":%d,
     "message":"%s"}
    """
        .formatted(reason, code, message);
  }

  private static void send(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
