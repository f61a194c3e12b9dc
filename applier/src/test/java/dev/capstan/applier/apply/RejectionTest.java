package dev.capstan.applier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

class RejectionTest {

  private static KubernetesClientException error(int code, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withMessage(message).build());
  }

  @Test
  void immutableFieldErrorsAreRecognised() {
    var r =
        Rejection.of(
            error(
                422,
                "Deployment.apps \"web\" is invalid: spec.selector: Invalid value: {...}: field is"
                    + " immutable"));
    assertTrue(r.immutableField());
    assertTrue(
        Rejection.of(
                error(
                    422,
                    "Service \"s\" is invalid: spec.clusterIPs[0]: Invalid value:"
                        + " []string{\"None\"}: may not change once set"))
            .immutableField());
  }

  @Test
  void otherRejectionsKeepTheServersReason() {
    var r =
        Rejection.of(
            error(
                422,
                "ConfigMap \"c\" is invalid: metadata.name: Invalid value: \"C\": a lowercase RFC"
                    + " 1123 subdomain"));
    assertFalse(r.immutableField());
    assertEquals(
        "ConfigMap \"c\" is invalid: metadata.name: Invalid value: \"C\": a lowercase RFC 1123"
            + " subdomain",
        r.reason());
    assertFalse(Rejection.of(error(409, "field is immutable")).immutableField());
  }
}
