package dev.capstan.decryption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Documents written to cost: anyone holding a tenant's public recipient can commit a SOPS document
 * whose data key the tenant's key opens, with any metadata. Every one ends within about a second,
 * refused with a message that names the rule or the bound and never the document's keys or values.
 *
 * <p>The regex {@code ^(.*a){5}b} backtracks over a key of 30 'a's for about 760,000 steps without
 * matching: under the budget of one evaluation, so that only a budget per document bounds a
 * document of many such keys.
 */
class HostileDocumentsTest {
  private static final String COSTLY_REGEX = "^(.*a){5}b";
  private static final String COSTLY_KEY = "a".repeat(30) + "!";
  private static final Map<String, Object> COSTLY_RULE = Map.of("encrypted_regex", COSTLY_REGEX);
  private static final YAMLMapper YAML = new YAMLMapper();

  private final SopsWriter writer = new SopsWriter();
  private final SopsDecryptor decryptor = new SopsDecryptor();
  @TempDir Path artifact;

  private static DecryptionException refused(
      DecryptionException.Problem problem, Runnable call, String... mentions) {
    DecryptionException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5), () -> assertThrows(DecryptionException.class, call::run));
    assertEquals(problem, e.problem(), e.getMessage());
    for (String mention : mentions) {
      assertTrue(e.getMessage().contains(mention), e.getMessage() + " should mention " + mention);
    }
    assertFalse(e.getMessage().contains(COSTLY_KEY), "no key of the document: " + e.getMessage());
    return e;
  }

  /** {@code count} keys that each cost the regex about 760,000 steps, nested one in the other. */
  private static Map<String, Object> nested(int count, Object bottom) {
    Object node = bottom;
    for (int i = count - 1; i >= 0; i--) {
      Map<String, Object> level = new LinkedHashMap<>();
      level.put(COSTLY_KEY + i, node);
      node = level;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> top = (Map<String, Object>) node;
    return top;
  }

  @Test
  void manyValuesUnderCostlyKeysCostTheRegexOncePerKey() throws IOException {
    // 3,000 values under 8 costly keys: per value, 8 evaluations of 760,000 steps each (18
    // billion steps); per key, 6 million.
    byte[] document =
        writer.yaml(nested(8, Collections.nCopies(3000, 1)), COSTLY_RULE, path -> false);
    DecryptedDocument plain =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5),
            () -> decryptor.decrypt(document, SopsFormat.YAML, writer.keys()));
    assertEquals(
        YAML.readTree(plain.content()),
        YAML.readTree(YAML.writeValueAsBytes(nested(8, Collections.nCopies(3000, 1)))));
  }

  @Test
  void theRegexWorkOfAWholeDocumentIsBounded() {
    // 20 keys, each under the budget of one evaluation; together past the document's.
    Map<String, Object> flat = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      flat.put(COSTLY_KEY + i, "value");
    }
    byte[] document = writer.yaml(flat, COSTLY_RULE, path -> false);
    refused(
        DecryptionException.Problem.MALFORMED,
        () -> decryptor.decrypt(document, SopsFormat.YAML, writer.keys()),
        "sops.encrypted_regex",
        "steps");
  }

  @Test
  void oneEvaluationIsBoundedToo() {
    byte[] document =
        writer.yaml(Map.of("a".repeat(40) + "!", "value"), COSTLY_RULE, path -> false);
    refused(
        DecryptionException.Problem.MALFORMED,
        () -> decryptor.decrypt(document, SopsFormat.YAML, writer.keys()),
        "sops.encrypted_regex",
        "one key");
  }

  @Test
  void theRegexWorkOfOneDecryptorIsBoundedAcrossDocuments() {
    // Each document costs about 6 million steps, under the document's budget: the decryptor of
    // one build stops after a few of them.
    byte[] document = writer.yaml(nested(8, "value"), COSTLY_RULE, path -> false);
    DecryptionException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                assertThrows(
                    DecryptionException.class,
                    () -> {
                      for (int i = 0; i < 20; i++) {
                        decryptor.decrypt(document, SopsFormat.YAML, writer.keys());
                      }
                    }));
    assertEquals(DecryptionException.Problem.MALFORMED, e.problem());
    assertTrue(e.getMessage().contains("this build's documents"), e.getMessage());
  }

  @Test
  void aMacEntryNotMadeWithTheDataKeyIsRefusedBeforeAnyRegexWork() {
    // A key whose one evaluation is past the budget: had the regex run first, that would fail.
    String text =
        new String(
            writer.yaml(Map.of("a".repeat(40) + "!", "value"), COSTLY_RULE, path -> false),
            StandardCharsets.UTF_8);
    byte[] tampered =
        GeneratorInputsTest.tampered(text, "mac: ENC[AES256_GCM,data:")
            .getBytes(StandardCharsets.UTF_8);
    refused(
        DecryptionException.Problem.INTEGRITY,
        () -> decryptor.decrypt(tampered, SopsFormat.YAML, writer.keys()),
        "the MAC does not authenticate");
  }

  @Test
  void tooManyValuesAreRefusedBeforeTheDataKeyIsOpened() {
    byte[] document =
        writer.yaml(Map.of("list", Collections.nCopies(20_001, 1)), Map.of(), path -> false);
    DecryptionKeys otherKeys = new SopsWriter().keys();
    refused(
        DecryptionException.Problem.MALFORMED,
        () -> decryptor.decrypt(document, SopsFormat.YAML, otherKeys),
        "more than 20000 values");
  }

  @Test
  void aLongSequenceIsRefusedWhileItIsParsed() {
    // 5 MiB of "1," in one flow sequence: 2.6 million values, once read whole before any bound.
    byte[] yaml =
        ("a: [" + "1,".repeat(2_600_000) + "1]\nsops: {lastmodified: x}\n")
            .getBytes(StandardCharsets.UTF_8);
    refused(
        DecryptionException.Problem.MALFORMED,
        () -> decryptor.decrypt(yaml, SopsFormat.YAML, writer.keys()),
        "nodes");
    byte[] json =
        ("{\"a\": [" + "1,".repeat(2_600_000) + "1], \"sops\": {}}")
            .getBytes(StandardCharsets.UTF_8);
    refused(
        DecryptionException.Problem.MALFORMED,
        () -> decryptor.decrypt(json, SopsFormat.JSON, writer.keys()),
        "tokens");
  }

  @Test
  void tooManyCopiesOfTheDataKeyAreRefused() {
    byte[] document = writer.yaml(Map.of("a", "b"), Map.of(), path -> true, 101);
    refused(
        DecryptionException.Problem.MALFORMED,
        () -> decryptor.decrypt(document, SopsFormat.YAML, writer.keys()),
        "more than 100 copies of its data key");
  }

  @Test
  void aCostlyGeneratorInputIsRefusedNamingItsFile() throws IOException {
    Map<String, Object> flat = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      flat.put(COSTLY_KEY + i, "value");
    }
    Files.createDirectories(artifact.resolve("app"));
    Files.writeString(
        artifact.resolve("app/kustomization.yaml"),
        "secretGenerator:\n- name: s\n  files: [values.yaml]\n");
    Files.write(artifact.resolve("app/values.yaml"), writer.yaml(flat, COSTLY_RULE, p -> false));
    DecryptionException e =
        refused(
            DecryptionException.Problem.MALFORMED,
            () -> {
              try {
                GeneratorInputs.decrypt(artifact, "app", List.of(), decryptor, writer.keys());
              } catch (IOException io) {
                throw new IllegalStateException(io);
              }
            });
    assertTrue(e.getMessage().startsWith("file 'app/values.yaml': "), e.getMessage());
  }

  @Test
  void theWriterWritesWhatTheDecryptorReads() throws IOException {
    Map<String, Object> secret = new LinkedHashMap<>();
    secret.put("kind", "Secret");
    secret.put("stringData", new LinkedHashMap<>(Map.of("password", "written-in-the-test")));
    secret.put("list", new ArrayList<>(List.of(1, true, "x")));
    byte[] document =
        writer.yaml(
            secret,
            Map.of("encrypted_regex", "^stringData$"),
            path -> path.get(0).equals("stringData"));
    assertTrue(new String(document, StandardCharsets.UTF_8).contains("ENC[AES256_GCM,"));
    assertEquals(
        YAML.readTree(YAML.writeValueAsBytes(secret)),
        YAML.readTree(decryptor.decrypt(document, SopsFormat.YAML, writer.keys()).content()));
  }
}
