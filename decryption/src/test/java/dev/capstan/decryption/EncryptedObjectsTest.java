package dev.capstan.decryption;

import static dev.capstan.decryption.SopsFixtures.encrypted;
import static dev.capstan.decryption.SopsFixtures.keys;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Encrypted objects of a build's output, checked against the documents committed in the artifact.
 */
class EncryptedObjectsTest {
  private static final YAMLMapper YAML = new YAMLMapper();
  private final SopsDecryptor decryptor = new SopsDecryptor();
  private final DecryptionKeys keys = keys("test-only.agekey", "test-only.asc");
  @TempDir Path artifact;

  private void commit(String path, byte[] content) throws IOException {
    Path file = artifact.resolve(path);
    Files.createDirectories(file.getParent());
    Files.write(file, content);
  }

  /**
   * The object as the build gives it: the committed document with its namespace and a label set.
   */
  private static Map<String, Object> built(byte[] committed) throws IOException {
    Map<String, Object> object =
        YAML.readValue(committed, new TypeReference<LinkedHashMap<String, Object>>() {});
    @SuppressWarnings("unchecked")
    Map<String, Object> metadata = (Map<String, Object>) object.get("metadata");
    metadata.put("namespace", "team-a");
    metadata.put("labels", Map.of("team", "payments"));
    return object;
  }

  private static DecryptionException fails(DecryptionException.Problem problem, ThrowingCall call) {
    DecryptionException e = assertThrows(DecryptionException.class, call::run);
    assertEquals(problem, e.problem(), e.getMessage());
    assertFalse(e.getMessage().contains("plaintext"), e.getMessage());
    return e;
  }

  interface ThrowingCall {
    void run() throws Exception;
  }

  @Test
  void anObjectChangedByTheBuildIsDecryptedAgainstItsCommittedDocument() throws IOException {
    commit("app/secret.yaml", encrypted("secret.age.yaml"));
    commit("app/other.yaml", "kind: ConfigMap\n".getBytes(StandardCharsets.UTF_8));
    EncryptedObjects.Decrypted decrypted =
        new EncryptedObjects(artifact, decryptor, keys)
            .decrypt(built(encrypted("secret.age.yaml")));
    Map<String, Object> plain = decrypted.object();
    // The committed document names no namespace: its author left it to the Kustomization.
    assertEquals(Optional.empty(), decrypted.authored().namespace());
    assertNull(plain.get("sops"));
    assertEquals(Map.of("password", "plaintext-db-password-42"), plain.get("stringData"));
    assertEquals(Map.of("token", "cGxhaW50ZXh0LXRva2VuLXZhbHVl"), plain.get("data"));
    assertEquals("team-a", ((Map<?, ?>) plain.get("metadata")).get("namespace"));
  }

  @Test
  void anObjectWhoseMacNoCommittedFileCarriesIsRefused() throws IOException {
    commit("app/secret.yaml", encrypted("secret.age.yaml"));
    // Encrypted for the same keys, but not in the artifact: its MAC is unknown here.
    Map<String, Object> stranger = built(encrypted("secret.pgp.yaml"));
    DecryptionException e =
        fails(
            DecryptionException.Problem.INTEGRITY,
            () -> new EncryptedObjects(artifact, decryptor, keys).decrypt(stranger));
    assertEquals(
        "no committed document of the source carries its sops metadata, so its MAC cannot be"
            + " checked",
        e.getMessage());
  }

  @Test
  void anObjectWithoutMacIsRefused() throws IOException {
    Map<String, Object> object = built(encrypted("secret.age.yaml"));
    ((Map<?, ?>) object.get("sops")).remove("mac");
    DecryptionException e =
        fails(
            DecryptionException.Problem.INTEGRITY,
            () -> new EncryptedObjects(artifact, decryptor, keys).decrypt(object));
    assertTrue(e.getMessage().contains("no MAC"), e.getMessage());
  }

  @Test
  void aCommittedDocumentWithATamperedMacIsRefusedNamingTheFile() throws IOException {
    byte[] tampered =
        GeneratorInputsTest.tampered(
                new String(encrypted("secret.age.yaml"), StandardCharsets.UTF_8),
                "mac: ENC[AES256_GCM,data:")
            .getBytes(StandardCharsets.UTF_8);
    commit("app/secret.yaml", tampered);
    DecryptionException e =
        fails(
            DecryptionException.Problem.INTEGRITY,
            () -> new EncryptedObjects(artifact, decryptor, keys).decrypt(built(tampered)));
    assertTrue(e.getMessage().startsWith("file 'app/secret.yaml': "), e.getMessage());
    assertTrue(e.getMessage().contains("MAC"), e.getMessage());
  }

  @Test
  void everyCommittedCopyWithTheMacMustVerify() throws IOException {
    String good = new String(encrypted("secret.age.yaml"), StandardCharsets.UTF_8);
    commit("a/secret.yaml", encrypted("secret.age.yaml"));
    // The same document with a value dropped: each value still authenticates, the MAC does not.
    commit(
        "b/secret.yaml",
        good.replaceAll("(?m)^    token: ENC\\[.*\\]\\n", "").getBytes(StandardCharsets.UTF_8));
    DecryptionException e =
        fails(
            DecryptionException.Problem.INTEGRITY,
            () ->
                new EncryptedObjects(artifact, decryptor, keys)
                    .decrypt(built(encrypted("secret.age.yaml"))));
    assertTrue(e.getMessage().startsWith("file 'b/secret.yaml': MAC mismatch"), e.getMessage());
  }

  @Test
  void theArtifactIsLookedThroughOncePerBuild() throws IOException {
    commit("app/secret.yaml", encrypted("secret.age.yaml"));
    EncryptedObjects build = new EncryptedObjects(artifact, decryptor, keys);
    build.decrypt(built(encrypted("secret.age.yaml")));
    // A file appearing after the first object was decrypted is not seen by the same build.
    commit("app/later.yaml", encrypted("secret.pgp.yaml"));
    fails(
        DecryptionException.Problem.INTEGRITY,
        () -> build.decrypt(built(encrypted("secret.pgp.yaml"))));
    new EncryptedObjects(artifact, decryptor, keys).decrypt(built(encrypted("secret.pgp.yaml")));
  }

  @Test
  void tooManyFilesToLookThroughAreRefusedRatherThanHalfSearched() throws IOException {
    for (int i = 0; i < 6; i++) {
      commit("many/f" + i + ".yaml", "kind: ConfigMap\n".getBytes(StandardCharsets.UTF_8));
    }
    commit("z/secret.yaml", encrypted("secret.age.yaml"));
    DecryptionException e =
        fails(
            DecryptionException.Problem.MALFORMED,
            () ->
                new EncryptedObjects(artifact, decryptor, keys, new MacIndex.Bounds(5, 1 << 20))
                    .decrypt(built(encrypted("secret.age.yaml"))));
    assertTrue(
        e.getMessage().startsWith("the artifact has more than 5 YAML and JSON files"),
        e.getMessage());
  }

  @Test
  void theNamespaceTheCommittedDocumentNamesUnderItsMacIsKnown() throws IOException {
    SopsWriter writer = new SopsWriter();
    Map<String, Object> secret = new LinkedHashMap<>();
    secret.put("apiVersion", "v1");
    secret.put("kind", "Secret");
    secret.put("metadata", new LinkedHashMap<>(Map.of("name", "s", "namespace", "payments")));
    secret.put("stringData", new LinkedHashMap<>(Map.of("password", "plaintext-p")));
    Map<String, Object> rule = Map.of("encrypted_regex", "^stringData$");
    byte[] covered = writer.yaml(secret, rule, p -> p.get(0).equals("stringData"));
    commit("covered.yaml", covered);
    // With mac_only_encrypted the MAC does not cover the namespace: nothing is authenticated.
    byte[] uncovered =
        writer.yaml(
            secret,
            Map.of("encrypted_regex", "^stringData$", "mac_only_encrypted", true),
            p -> p.get(0).equals("stringData"));
    commit("uncovered.yaml", uncovered);
    EncryptedObjects objects = new EncryptedObjects(artifact, decryptor, writer.keys());
    assertEquals(Optional.of("payments"), objects.decrypt(built(covered)).authored().namespace());
    assertEquals(Optional.empty(), objects.decrypt(built(uncovered)).authored().namespace());
  }

  @Test
  void onlyObjectsWithSopsMetadataAreEncrypted() throws IOException {
    assertTrue(EncryptedObjects.isEncrypted(built(encrypted("secret.age.yaml"))));
    assertFalse(
        EncryptedObjects.isEncrypted(Map.of("kind", "Secret", "data", Map.of("a", "Yg=="))));
    assertFalse(EncryptedObjects.isEncrypted(Map.of("kind", "ConfigMap", "sops", "just a string")));
  }
}
