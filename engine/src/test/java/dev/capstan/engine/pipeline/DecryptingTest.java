package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.decryption.DecryptionKeys;
import dev.capstan.engine.decryption.Plaintexts;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decryption stage around the build: what it passes, decrypts, refuses and lets be shown. */
class DecryptingTest {
  private static final Path FIXTURES = Path.of("src/test/resources/sops");
  @TempDir Path artifact;

  private static byte[] fixture(String path) throws IOException {
    return Files.readAllBytes(FIXTURES.resolve(path));
  }

  private static GenericKubernetesResource object(byte[] yaml) {
    return Serialization.unmarshal(
        new String(yaml, StandardCharsets.UTF_8), GenericKubernetesResource.class);
  }

  private static Decrypting withAgeKey() throws IOException {
    return Decrypting.withKeys(
        Optional.of(
            DecryptionKeys.fromSecretData(
                Map.of("identity.agekey", fixture("keys/test-only.agekey")))));
  }

  @Test
  void objectsWithoutSopsAreUntouched() throws IOException {
    GenericKubernetesResource plain = object(fixture("plain/secret.yaml"));
    GenericKubernetesResource config =
        object(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"
                .getBytes(StandardCharsets.UTF_8));
    for (Decrypting decrypting : List.of(withAgeKey(), Decrypting.withKeys(Optional.empty()))) {
      Decrypting.Decrypted decrypted =
          decrypting.objects(artifact, List.of(plain, config), Plaintexts.NONE);
      List<GenericKubernetesResource> out = decrypted.objects();
      assertTrue(decrypted.plaintexts().isEmpty());
      assertSame(plain, out.get(0));
      assertSame(config, out.get(1));
    }
  }

  @Test
  void anEncryptedObjectIsDecryptedWithKeys() throws IOException {
    Files.write(artifact.resolve("secret.yaml"), fixture("encrypted/secret.age.yaml"));
    Decrypting.Decrypted decrypted =
        withAgeKey()
            .objects(
                artifact, List.of(object(fixture("encrypted/secret.age.yaml"))), Plaintexts.NONE);
    GenericKubernetesResource out = decrypted.objects().get(0);
    assertNull(out.getAdditionalProperties().get("sops"));
    assertEquals(
        Map.of("password", "plaintext-db-password-42"),
        out.getAdditionalProperties().get("stringData"));
    // What was decrypted is known, to be kept out of messages; what was plain is not.
    assertEquals(
        "Secret data[***] refused; type Opaque",
        decrypted
            .plaintexts()
            .redact("Secret data[plaintext-db-password-42] refused; type Opaque"));
  }

  @Test
  void anEncryptedObjectWithoutDecryptionIsRefusedAsFluxRefusesIt() throws IOException {
    StageFailure f =
        assertThrows(
            StageFailure.class,
            () ->
                Decrypting.withKeys(Optional.empty())
                    .objects(
                        artifact,
                        List.of(object(fixture("encrypted/secret.age.yaml"))),
                        Plaintexts.NONE));
    Phase.Failed failed = (Phase.Failed) f.phase();
    assertEquals(Reason.DECRYPTION_FAILED, failed.reason());
    assertEquals(
        "Secret/db-credentials is SOPS-encrypted and spec.decryption is not set: it cannot be"
            + " applied",
        f.getMessage());
  }
}
