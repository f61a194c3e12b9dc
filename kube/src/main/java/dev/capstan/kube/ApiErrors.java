package dev.capstan.kube;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/**
 * The API server's reason for a failed request, read from the client's exception. When the server
 * answered, the exception carries its {@code Status}, whose message is the sentence a user can act
 * on ({@code secrets "db" is forbidden: User "x" cannot get ...}); the exception's own message
 * wraps it in the request that failed. When it did not answer there is no Status and the code is 0.
 */
public final class ApiErrors {
  private ApiErrors() {}

  /** The message of the Status the API server answered with, when it sent one with a message. */
  public static Optional<String> message(KubernetesClientException e) {
    Status status = e.getStatus();
    return status == null ? Optional.empty() : Optional.ofNullable(status.getMessage());
  }

  /** The API server's message, else the client's own description of what failed. */
  public static String reason(KubernetesClientException e) {
    return message(e).orElseGet(e::getMessage);
  }

  /**
   * The API server's message when it is not blank, else what happened in a few words: the HTTP code
   * it answered with, or that it could not be reached. Never a request line or stack trace.
   */
  public static String refusal(KubernetesClientException e) {
    return message(e)
        .filter(m -> !m.isBlank())
        .orElseGet(
            () ->
                e.getCode() > 0
                    ? "the API server answered HTTP " + e.getCode()
                    : "the API server could not be reached");
  }

  /**
   * {@code HTTP 403} and the API server's message, when it sent one: how a request it answered
   * failed, for a request whose code matters to the reader as much as the message.
   */
  public static String httpAnswer(KubernetesClientException e) {
    return "HTTP " + e.getCode() + message(e).map(m -> " " + m).orElse("");
  }
}
