package dev.capstan.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * A request to reconcile a Kustomization or a GitRepository now. The requester sets the annotation
 * {@value #ANNOTATION} to a fresh token, the time of the request; the controller echoes the token
 * in {@code status.lastHandledReconcileAt} once it has handled it. Every requester builds its patch
 * here.
 *
 * @param token the annotation's value; a new one is a new request
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReconcileRequest(String token) {
  public static final String ANNOTATION = "reconcile.capstan.dev/requestedAt";

  public ReconcileRequest {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("a reconcile request needs a token");
    }
  }

  /** A request made now: its token is the current time, as Flux's command line writes it. */
  public static ReconcileRequest at(Clock clock) {
    return new ReconcileRequest(clock.instant().toString());
  }

  /**
   * The JSON merge patch that makes this request: it sets the annotation and nothing else. The map
   * is new and modifiable, so that one patch can change more at the same time (resume clears {@code
   * spec.suspend} with it).
   */
  public Map<String, Object> mergePatch() {
    Map<String, Object> patch = new HashMap<>();
    patch.put("metadata", Map.of("annotations", Map.of(ANNOTATION, token)));
    return patch;
  }

  /**
   * Whether a {@code status.lastHandledReconcileAt} of this value says this request was handled.
   */
  public boolean handledBy(String lastHandledReconcileAt) {
    return token.equals(lastHandledReconcileAt);
  }

  /** The token of the request last made on {@code object}, or null when none was ever made. */
  public static String requestedAt(HasMetadata object) {
    Map<String, String> annotations =
        object.getMetadata() == null ? null : object.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(ANNOTATION);
  }
}
