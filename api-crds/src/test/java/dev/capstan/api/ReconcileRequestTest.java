package dev.capstan.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReconcileRequestTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-01-02T03:04:05.678Z"), ZoneOffset.UTC);
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  @Test
  void theTokenIsTheTimeOfTheRequest() {
    assertEquals("2026-01-02T03:04:05.678Z", ReconcileRequest.at(CLOCK).token());
  }

  @Test
  void thePatchSetsOnlyTheAnnotation() {
    assertEquals(
        "{\"metadata\":{\"annotations\":"
            + "{\"reconcile.capstan.dev/requestedAt\":\"2026-01-02T03:04:05.678Z\"}}}",
        serialization.asJson(ReconcileRequest.at(CLOCK).mergePatch()));
  }

  @Test
  void aPatchCanChangeMoreAtTheSameTimeWithoutChangingTheNextOne() {
    ReconcileRequest request = ReconcileRequest.at(CLOCK);
    Map<String, Object> resume = request.mergePatch();
    resume.put("spec", Map.of("suspend", false));
    assertEquals(Map.of("suspend", false), resume.get("spec"));
    assertFalse(request.mergePatch().containsKey("spec"));
  }

  @Test
  void theControllersEchoSaysWhetherItWasHandled() {
    ReconcileRequest request = new ReconcileRequest("2026-01-02T03:04:05.678Z");
    assertTrue(request.handledBy("2026-01-02T03:04:05.678Z"));
    assertFalse(request.handledBy("2026-01-02T03:04:00Z"));
    assertFalse(request.handledBy(null));
  }

  @Test
  void readsTheRequestOnAnObject() {
    Kustomization asked =
        serialization.unmarshal(
            """
            apiVersion: kustomize.capstan.dev/v1
            kind: Kustomization
            metadata:
              name: apps
              annotations: {reconcile.capstan.dev/requestedAt: "2026-01-02T03:04:05Z", other: x}
            """,
            Kustomization.class);
    GitRepository never =
        serialization.unmarshal(
            """
            apiVersion: source.capstan.dev/v1
            kind: GitRepository
            metadata: {name: repo}
            """,
            GitRepository.class);
    assertEquals("2026-01-02T03:04:05Z", ReconcileRequest.requestedAt(asked));
    assertNull(ReconcileRequest.requestedAt(never));
    assertNull(ReconcileRequest.requestedAt(new GitRepository()));
  }

  @Test
  void aRequestHasAToken() {
    assertThrows(IllegalArgumentException.class, () -> new ReconcileRequest(" "));
    assertThrows(IllegalArgumentException.class, () -> new ReconcileRequest(null));
  }
}
