package dev.capstan.decryption;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where decrypted values may be applied, and with which marks of a controller that copies Secrets
 * to other namespaces: the encrypted documents are written in the test from YAML fixtures, with
 * their labels and annotations plain and under the MAC, as {@code encrypted_regex:
 * ^(data|stringData)$} leaves them.
 */
class SecretPlacementTest {
  private static final Path PLAIN = Path.of("src/test/resources/sops/plain");
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};
  private static final Predicate<List<String>> STRING_DATA = p -> p.get(0).equals("stringData");
  private static final SecretPlacement PLACEMENT = SecretPlacement.of("apps", null);
  private static final String KEPT_ONLY =
      "a decrypted Secret keeps such a mark only as its encrypted document declares it under its"
          + " MAC, or as the Kustomization's commonMetadata sets it";

  private final SopsWriter writer = new SopsWriter();
  @TempDir Path artifact;

  /** The fixture encrypted and committed; the object as the build gives it, decrypted. */
  private EncryptedObjects.Decrypted committed(String fixture, Map<String, Object> rules)
      throws IOException {
    Map<String, Object> plain = YAML.readValue(PLAIN.resolve(fixture).toFile(), MAP);
    byte[] encrypted = writer.yaml(plain, rules, STRING_DATA);
    Files.write(artifact.resolve("secret.yaml"), encrypted);
    return new EncryptedObjects(artifact, new SopsDecryptor(), writer.keys())
        .decrypt(YAML.readValue(encrypted, MAP));
  }

  private EncryptedObjects.Decrypted committed(String fixture) throws IOException {
    return committed(fixture, Map.of("encrypted_regex", "^(data|stringData)$"));
  }

  /** What a patch of the kustomization does: sets one label or annotation. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> marked(
      EncryptedObjects.Decrypted decrypted, String field, String key, String value) {
    Map<String, Object> metadata = (Map<String, Object>) decrypted.object().get("metadata");
    Map<String, Object> marks =
        new LinkedHashMap<>((Map<String, Object>) metadata.getOrDefault(field, Map.of()));
    marks.put(key, value);
    metadata.put(field, marks);
    return decrypted.object();
  }

  private static String refused(SecretPlacement placement, EncryptedObjects.Decrypted decrypted) {
    DecryptionException e =
        assertThrows(
            DecryptionException.class,
            () -> placement.checkDecrypted(decrypted.object(), decrypted.authored()));
    assertEquals(DecryptionException.Problem.MALFORMED, e.problem());
    return e.getMessage();
  }

  @Test
  void theReplicationItsEncryptedDocumentDeclaresIsKept() throws IOException {
    EncryptedObjects.Decrypted decrypted = committed("secret.reflected.yaml");
    assertEquals(
        Map.of(
            "reflector.v1.k8s.emberstack.com/reflection-allowed", "true",
            "reflector.v1.k8s.emberstack.com/reflection-allowed-namespaces", "team-b"),
        decrypted.authored().annotations());
    assertDoesNotThrow(() -> PLACEMENT.checkDecrypted(decrypted.object(), decrypted.authored()));
  }

  @Test
  void aReplicationAnnotationAddedByAPatchIsRefusedNamingTheKeyNotTheValue() throws IOException {
    EncryptedObjects.Decrypted decrypted = committed("secret.payments.yaml");
    marked(decrypted, "annotations", "replicator.v1.mittwald.de/replicate-to", "attacker-ns");
    String message = refused(PLACEMENT, decrypted);
    assertEquals(
        "Secret/payments/payments-credentials: annotation 'replicator.v1.mittwald.de/replicate-to'"
            + " would have a controller copy the decrypted Secret to other namespaces; "
            + KEPT_ONLY,
        message);
    assertFalse(message.contains("attacker-ns"), message);
  }

  @Test
  void aDeclaredReplicationWidenedByAPatchIsRefused() throws IOException {
    EncryptedObjects.Decrypted decrypted = committed("secret.reflected.yaml");
    marked(
        decrypted,
        "annotations",
        "reflector.v1.k8s.emberstack.com/reflection-allowed-namespaces",
        ".*");
    assertEquals(
        "Secret/apps/shared-credentials: annotation"
            + " 'reflector.v1.k8s.emberstack.com/reflection-allowed-namespaces' would have a"
            + " controller copy the decrypted Secret to other namespaces; "
            + KEPT_ONLY,
        refused(PLACEMENT, decrypted));
  }

  @Test
  void aReplicationLabelAddedByAPatchIsRefused() throws IOException {
    EncryptedObjects.Decrypted decrypted = committed("secret.reflected.yaml");
    marked(decrypted, "labels", "kubed.appscode.com/sync", "true");
    assertEquals(
        "Secret/apps/shared-credentials: label 'kubed.appscode.com/sync' would have a controller"
            + " copy the decrypted Secret to other namespaces; "
            + KEPT_ONLY,
        refused(PLACEMENT, decrypted));
  }

  @Test
  void otherLabelsAndAnnotationsAddedByAPatchAreKept() throws IOException {
    EncryptedObjects.Decrypted decrypted = committed("secret.payments.yaml");
    marked(decrypted, "labels", "app.kubernetes.io/part-of", "payments");
    marked(decrypted, "annotations", "reloader.stakater.com/match", "true");
    assertDoesNotThrow(() -> PLACEMENT.checkDecrypted(decrypted.object(), decrypted.authored()));
  }

  @Test
  void theKustomizationsCommonMetadataMayMarkADecryptedSecret() throws IOException {
    EncryptedObjects.Decrypted decrypted = committed("secret.payments.yaml");
    marked(decrypted, "annotations", "kubed.appscode.com/sync", "team=payments");
    SecretPlacement common =
        PLACEMENT.withCommonMetadata(null, Map.of("kubed.appscode.com/sync", "team=payments"));
    assertDoesNotThrow(() -> common.checkDecrypted(decrypted.object(), decrypted.authored()));
    SecretPlacement other =
        PLACEMENT.withCommonMetadata(null, Map.of("kubed.appscode.com/sync", "team=other"));
    refused(other, decrypted);
  }

  @Test
  void withMacOnlyEncryptedTheDocumentsAnnotationsAreNotItsAuthors() throws IOException {
    EncryptedObjects.Decrypted decrypted =
        committed(
            "secret.reflected.yaml",
            Map.of("encrypted_regex", "^(data|stringData)$", "mac_only_encrypted", true));
    assertEquals(Map.of(), decrypted.authored().annotations());
    refused(PLACEMENT, decrypted);
  }

  @Test
  void aSecretMadeFromDecryptedGeneratorInputsKeepsNoReplicationMark() throws IOException {
    Map<String, Object> generated =
        YAML.readValue(
            """
            apiVersion: v1
            kind: Secret
            metadata:
              name: app-env
              annotations:
                replicator.v1.mittwald.de/replication-allowed: "true"
            data: {DB_PASSWORD: c2VjcmV0}
            """,
            MAP);
    DecryptionException e =
        assertThrows(DecryptionException.class, () -> PLACEMENT.checkGenerated(generated));
    assertEquals(
        "Secret/apps/app-env: annotation 'replicator.v1.mittwald.de/replication-allowed' would"
            + " have a controller copy the decrypted Secret to other namespaces; a Secret made from"
            + " decrypted secretGenerator inputs keeps such a mark only as the Kustomization's"
            + " commonMetadata sets it (a SOPS-encrypted Secret may declare it in its own"
            + " document)",
        e.getMessage());
  }
}
