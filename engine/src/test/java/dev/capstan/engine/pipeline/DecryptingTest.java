package dev.capstan.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.engine.decryption.DecryptedInputs;
import dev.capstan.engine.decryption.DecryptionKeys;
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
    return Serialization.unmarshal(new String(yaml, StandardCharsets.UTF_8), GenericKubernetesResource.class);
  }

  private static Decrypting withAgeKey() throws IOException {
    return Decrypting.withKeys(Optional.of(DecryptionKeys.fromSecretData(
        Map.of("identity.agekey", fixture("keys/test-only.agekey")))));
  }

  @Test
  void objectsWithoutSopsAreUntouched() throws IOException {
    GenericKubernetesResource plain = object(fixture("plain/secret.yaml"));
    GenericKubernetesResource config = object("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"
        .getBytes(StandardCharsets.UTF_8));
    for (Decrypting decrypting : List.of(withAgeKey(), Decrypting.withKeys(Optional.empty()))) {
      List<GenericKubernetesResource> out = decrypting.objects(artifact, List.of(plain, config));
      assertSame(plain, out.get(0));
      assertSame(config, out.get(1));
    }
  }

  @Test
  void anEncryptedObjectIsDecryptedWithKeys() throws IOException {
    Files.write(artifact.resolve("secret.yaml"), fixture("encrypted/secret.age.yaml"));
    GenericKubernetesResource out = withAgeKey().objects(artifact,
        List.of(object(fixture("encrypted/secret.age.yaml")))).get(0);
    assertNull(out.getAdditionalProperties().get("sops"));
    assertEquals(Map.of("password", "plaintext-db-password-42"), out.getAdditionalProperties().get("stringData"));
  }

  @Test
  void anEncryptedObjectWithoutDecryptionIsRefusedAsFluxRefusesIt() throws IOException {
    StageFailure f = assertThrows(StageFailure.class, () -> Decrypting.withKeys(Optional.empty())
        .objects(artifact, List.of(object(fixture("encrypted/secret.age.yaml")))));
    Phase.Failed failed = (Phase.Failed) f.phase();
    assertEquals(Reason.DECRYPTION_FAILED, failed.reason());
    assertEquals("Secret/db-credentials is SOPS-encrypted and spec.decryption is not set: it cannot be applied",
        f.getMessage());
  }

  @Test
  void aBuildMessageQuotingDecryptedContentIsWithheld() {
    DecryptedInputs inputs = new DecryptedInputs(Map.of("app/secret.yaml",
        "password: plaintext-db-password-42\n".getBytes(StandardCharsets.UTF_8)));
    String shown = Decrypting.shown(
        "\"password: plaintext-db-password-42\" is not a valid key name: a valid environment variable name", inputs);
    assertEquals("kustomize's message is withheld because it quotes decrypted content of 'app/secret.yaml'", shown);
    assertFalse(shown.contains("plaintext"));
    String unrelated = "accumulating resources: 'app/missing.yaml' does not exist";
    assertEquals(unrelated, Decrypting.shown(unrelated, inputs));
    assertTrue(Decrypting.shown(unrelated, DecryptedInputs.NONE).equals(unrelated));
  }
}
