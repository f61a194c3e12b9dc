package dev.capstan.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiErrorsTest {
  private static final String FORBIDDEN =
      "secrets \"db\" is forbidden: User \"alice\" cannot get resource \"secrets\"";

  private static KubernetesClientException answered(int code, String message) {
    Status status = new StatusBuilder().withCode(code).withMessage(message).build();
    return new KubernetesClientException(
        "Failure executing: GET at: https://api/v1/secrets/db. Message: " + message, code, status);
  }

  private static KubernetesClientException unanswered() {
    return new KubernetesClientException(
        "Operation: [get] for kind: [Secret] failed.", new ConnectException("refused"));
  }

  @Test
  void theServersMessageIsTheReason() {
    KubernetesClientException e = answered(403, FORBIDDEN);
    assertEquals(Optional.of(FORBIDDEN), ApiErrors.message(e));
    assertEquals(FORBIDDEN, ApiErrors.reason(e));
    assertEquals(FORBIDDEN, ApiErrors.refusal(e));
    assertEquals("HTTP 403 " + FORBIDDEN, ApiErrors.httpAnswer(e));
  }

  @Test
  void withoutAnAnswerTheClientSaysWhatFailed() {
    KubernetesClientException e = unanswered();
    assertEquals(Optional.empty(), ApiErrors.message(e));
    assertEquals("Operation: [get] for kind: [Secret] failed.", ApiErrors.reason(e));
    assertEquals("the API server could not be reached", ApiErrors.refusal(e));
  }

  @Test
  void aStatusWithoutAMessageFallsBackToTheClientsMessage() {
    KubernetesClientException e = answered(404, null);
    assertEquals(Optional.empty(), ApiErrors.message(e));
    assertEquals(e.getMessage(), ApiErrors.reason(e));
    assertEquals("the API server answered HTTP 404", ApiErrors.refusal(e));
    assertEquals("HTTP 404", ApiErrors.httpAnswer(e));
  }

  @Test
  void aBlankMessageIsARefusalByCodeButStillTheServersReason() {
    KubernetesClientException e = answered(500, " ");
    assertEquals(" ", ApiErrors.reason(e));
    assertEquals("the API server answered HTTP 500", ApiErrors.refusal(e));
  }

  @Test
  void aCodeWithoutAStatusIsAnAnswerWithoutAMessage() {
    KubernetesClientException e =
        new KubernetesClientException("HTTP 502 from the API server", 502, null);
    assertEquals("HTTP 502 from the API server", ApiErrors.reason(e));
    assertEquals("the API server answered HTTP 502", ApiErrors.refusal(e));
    assertEquals("HTTP 502", ApiErrors.httpAnswer(e));
  }
}
