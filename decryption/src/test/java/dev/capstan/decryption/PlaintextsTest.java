package dev.capstan.decryption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Decrypted content taken out of messages, as the API server and kustomize quote it. */
class PlaintextsTest {
  private static final Plaintexts INPUTS =
      Plaintexts.of(
          new DecryptedInputs(
              Map.of(
                  "app/values.yaml",
                  """
                  public: visible
                  port: 8080
                  nested:
                    password: "plaintext-nested-password"
                  empty: ""
                  pin: 123
                  """
                      .getBytes(StandardCharsets.UTF_8))));

  @Test
  void theApiServersQuotesOfRefusedKeysAreMasked() {
    String refused =
        "apply failed: Secret/ns/from-yaml: Secret \"from-yaml\" is invalid: [data[public:"
            + " visible]: Invalid value: \"public: visible\": a valid config key must consist of"
            + " alphanumeric characters, data[password: \"plaintext-nested-password\"]: Invalid"
            + " value: \"password: \\\"plaintext-nested-password\\\"\": a valid config key,"
            + " data[pin: 123]: Invalid value: \"pin: 123\"]";
    String shown = INPUTS.redact(refused);
    assertEquals(
        "apply failed: Secret/ns/from-yaml: Secret \"from-yaml\" is invalid: [data[***]: Invalid"
            + " value: \"***\": a valid config key must consist of alphanumeric characters,"
            + " data[***]: Invalid value: \"***\": a valid config key, data[***]: Invalid value:"
            + " \"***\"]",
        shown);
  }

  @Test
  void kustomizesQuoteOfAnEnvLineIsMasked() {
    assertEquals(
        "\"***\" is not a valid key name",
        INPUTS.redact("\"password: \\\"plaintext-nested-password\\\"\" is not a valid key name"));
    assertEquals("value *** refused", INPUTS.redact("value plaintext-nested-password refused"));
  }

  @Test
  void shortValuesAreMaskedOnlyWhereQuotedOnTheirOwn() {
    assertEquals(
        "key [***] and \"***\", but 123 items",
        INPUTS.redact("key [123] and \"123\", but 123 items"));
  }

  @Test
  void aMessageStillShowingAPieceAfterMaskingIsWithheld() {
    // Spread over quotes the masking does not know: only the loose comparison finds it.
    assertEquals(Plaintexts.WITHHELD, INPUTS.redact("got plaintext-'nested'-password here"));
  }

  @Test
  void messagesWithoutDecryptedContentAreUnchanged() {
    String message = "accumulating resources: 'app/missing.yaml' does not exist";
    assertEquals(message, INPUTS.redact(message));
    assertEquals(message, Plaintexts.NONE.redact(message));
    assertTrue(Plaintexts.NONE.isEmpty());
  }

  @Test
  void decryptedObjectValuesAndTheirBase64TextAreKnownButPlainOnesAreNot() {
    String token =
        Base64.getEncoder()
            .encodeToString("plaintext-token\nsecond-line".getBytes(StandardCharsets.UTF_8));
    Map<String, Object> encrypted =
        Map.of(
            "metadata",
            Map.of("name", "db"),
            "data",
            Map.of("token", "ENC[AES256_GCM,data:x,iv:y,tag:z,type:str]"),
            "list",
            List.of("ENC[AES256_GCM,data:a,iv:b,tag:c,type:str]"));
    Map<String, Object> decrypted =
        Map.of(
            "metadata",
            Map.of("name", "db"),
            "data",
            Map.of("token", token),
            "list",
            List.of("plaintext-item"));
    Plaintexts known = Plaintexts.NONE.and(encrypted, decrypted);
    String shown = known.redact("db: " + token + " plaintext-token second-line plaintext-item");
    assertEquals("db: *** *** *** ***", shown);
    assertFalse(known.isEmpty());
  }

  @Test
  void valuesFromSecretsAndTheirLinesAreMaskedAndShortOnesOnlyWhereQuoted() {
    Plaintexts known =
        Plaintexts.ofValues(List.of("s3cr3t-db-password", "line-one-key\nline-two-key", "42"));
    assertEquals(
        "execution error: password *** is too weak; key *** and \"***\" but 42 items",
        known.redact(
            "execution error: password s3cr3t-db-password is too weak; key line-two-key and"
                + " \"42\" but 42 items"));
    assertEquals(Plaintexts.WITHHELD, known.redact("got s3cr3t-'db'-password"));
    assertTrue(Plaintexts.ofValues(List.of("", "  ")).isEmpty());
  }

  @Test
  void moreValuesAreMaskedBesideTheFirst() {
    Plaintexts known = Plaintexts.ofValues(List.of("first-secret")).andValues(List.of("older-one"));
    assertEquals("*** and ***", known.redact("first-secret and older-one"));
  }

  @Test
  void aShortValueIsMaskedWhereItIsALinesWholeValueNotInsideWords() {
    Plaintexts known = Plaintexts.ofValues(List.of("123", "long-secret-value"));
    assertEquals(
        "-  pin: ***\n+  pin: ***\n   - ***\n   port: 1234\n   name: a123\n   token: ***\n",
        known.redactLines(
            "-  pin: 123\n+  pin: 123  \n   - 123\n   port: 1234\n   name: a123\n"
                + "   token: long-secret-value\n"));
    assertEquals("pin: 123", known.redact("pin: 123"), "a message is not a YAML text");
  }
}
