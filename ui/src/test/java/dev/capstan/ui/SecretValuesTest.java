package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecretValuesTest {
  private static GenericKubernetesResource object(String yaml) {
    return Serialization.unmarshal(yaml, GenericKubernetesResource.class);
  }

  private final SecretValues values =
      SecretValues.of(
          List.of(
              object(
                  """
                  apiVersion: v1
                  kind: Secret
                  metadata: {name: db}
                  data: {password: aHVudGVyMg==}
                  stringData: {token: "tok-1234\\nline-two"}
                  """),
              object(
                  """
                  apiVersion: v1
                  kind: ConfigMap
                  metadata: {name: settings}
                  data: {color: blue-green}
                  """)));

  @Test
  void masksSecretValuesInEveryForm() {
    assertEquals("value *** refused", values.redact("value hunter2 refused"));
    assertEquals("data.password: ***", values.redact("data.password: aHVudGVyMg=="));
    assertEquals("\"***\"", values.redact("\"tok-1234\\nline-two\""));
    assertEquals("*** and ***", values.redact("tok-1234 and line-two"));
  }

  @Test
  void leavesOtherObjectsValuesAndShortValuesAlone() {
    assertEquals("blue-green", values.redact("blue-green"));
    SecretValues shortOnes =
        SecretValues.of(
            List.of(
                object(
                    """
                    apiVersion: v1
                    kind: Secret
                    metadata: {name: s}
                    stringData: {a: "x"}
                    """)));
    assertEquals("x marks the spot", shortOnes.redact("x marks the spot"));
  }
}
