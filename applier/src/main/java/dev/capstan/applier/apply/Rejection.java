package dev.capstan.applier.apply;

import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Locale;

/** Why the API server refused one object, and whether it was an immutable-field error. */
public record Rejection(String reason, boolean immutableField) {

  public static Rejection of(KubernetesClientException e) {
    String reason = ApiErrors.message(e).orElseGet(() -> firstLine(e.getMessage()));
    return new Rejection(reason, e.getCode() == 422 && isImmutableMessage(reason));
  }

  /** Kubernetes validation says "field is immutable" or, for a few fields, "may not change". */
  static boolean isImmutableMessage(String message) {
    String lower = message.toLowerCase(Locale.ROOT);
    return lower.contains("field is immutable")
        || lower.contains("is immutable")
        || lower.contains("may not change once set")
        || lower.contains("cannot be changed");
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "request failed";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
