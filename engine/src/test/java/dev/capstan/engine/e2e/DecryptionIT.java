package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * spec.decryption as a Flux user sees it: Secrets and a secretGenerator env file encrypted by
 * the real sops (fixtures under src/test/resources/sops) are applied decrypted; a tampered
 * revision is refused whole with DecryptionFailed and the last good objects stay.
 */
class DecryptionIT extends EngineTestBase {
  private static final Path FIXTURES = Path.of("src/test/resources/sops");
  private static final String KUSTOMIZATION = """
      resources: [secret.yaml]
      secretGenerator:
      - name: app-env
        envs: [app.env]
        options: {disableNameSuffixHash: true}
      """;

  private static String fixture(String path) {
    try {
      return Files.readString(FIXTURES.resolve(path), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void keySecret(String name, String entry, String keyFile) {
    engine.client.secrets().inNamespace(ns()).resource(new SecretBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withStringData(Map.of(entry, fixture("keys/" + keyFile))).build()).create();
  }

  private static String value(String secret, String key) {
    Secret s = engine.client.secrets().inNamespace(ns()).withName(secret).get();
    return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
  }

  @Test
  void encryptedSecretsAreAppliedDecryptedAndATamperedRevisionIsRefused() {
    String good = git.commit(Map.of(
        "app/kustomization.yaml", KUSTOMIZATION,
        "app/secret.yaml", fixture("encrypted/secret.age.yaml"),
        "app/app.env", fixture("encrypted/app.env")));
    keySecret("sops-keys", "identity.agekey", "test-only.agekey");
    engine.gitRepository("repo", git.url());
    engine.kustomization("app", "repo", "./app", """
          commonMetadata: {labels: {team: payments}}
          decryption:
            provider: sops
            secretRef: {name: sops-keys}
        """);

    engine.awaitCondition("app", "Ready", Duration.ofSeconds(90), EngineTestBase::isTrue);
    assertEquals("plaintext-db-password-42", value("db-credentials", "password"));
    assertEquals("plaintext-token-value", value("db-credentials", "token"));
    assertEquals("plaintext-env-password", value("app-env", "DB_PASSWORD"));
    assertEquals("line1\\nline2", value("app-env", "MULTI")); // kustomize keeps the escape
    Secret applied = engine.client.secrets().inNamespace(ns()).withName("db-credentials").get();
    assertNull(applied.getAdditionalProperties().get("sops"));
    assertEquals("payments", applied.getMetadata().getLabels().get("team"));

    String text = fixture("encrypted/secret.age.yaml");
    String replacement = text.contains("mac: ENC[AES256_GCM,data:A") ? "B" : "A";
    git.commit(Map.of("app/secret.yaml",
        text.replaceFirst("mac: ENC\\[AES256_GCM,data:.", "mac: ENC[AES256_GCM,data:" + replacement)
            .replace("name: db-credentials", "name: db-credentials-renamed")));
    engine.requestReconcile(GitRepository.class, "repo");
    var failed = engine.awaitCondition("app", "Ready", Duration.ofSeconds(90),
        c -> "DecryptionFailed".equals(c.getReason()));
    assertTrue(failed.getMessage().contains("app/secret.yaml"), failed.getMessage());
    assertTrue(failed.getMessage().contains("MAC"), failed.getMessage());
    assertEquals(good, engine.kustomization("app").getStatus().lastAppliedRevision());
    assertNull(engine.client.secrets().inNamespace(ns()).withName("db-credentials-renamed").get(),
        "nothing of the refused revision is applied");
    assertEquals("plaintext-db-password-42", value("db-credentials", "password"));
    assertNoPlaintextOutside();
  }

  @Test
  void anEncryptedSecretWithoutDecryptionOrWithTheWrongKeyIsRefused() {
    git.commit(Map.of("plain/secret.yaml", fixture("encrypted/secret.age.yaml"),
        "wrong/secret.yaml", fixture("encrypted/secret.pgp.yaml")));
    keySecret("other-keys", "other.agekey", "test-only-unrelated.agekey");
    engine.gitRepository("repo-refused", git.url());
    engine.kustomization("no-decryption", "repo-refused", "./plain", "");
    engine.kustomization("wrong-key", "repo-refused", "./wrong", """
          retryInterval: 2s
          decryption: {provider: sops, secretRef: {name: other-keys}}
        """);
    engine.kustomization("no-secret", "repo-refused", "./wrong", """
          retryInterval: 2s
          decryption: {provider: sops, secretRef: {name: not-there}}
        """);

    var plain = engine.awaitCondition("no-decryption", "Ready", Duration.ofSeconds(90),
        c -> "DecryptionFailed".equals(c.getReason()));
    assertEquals("Secret/db-credentials is SOPS-encrypted and spec.decryption is not set: it cannot be applied",
        plain.getMessage());
    var wrong = engine.awaitCondition("wrong-key", "Ready", Duration.ofSeconds(90),
        c -> "DecryptionFailed".equals(c.getReason()));
    assertTrue(wrong.getMessage().contains("Secret/db-credentials"), wrong.getMessage());
    assertTrue(wrong.getMessage().contains("no key of the decryption Secret opens the data key"), wrong.getMessage());
    var missing = engine.awaitCondition("no-secret", "Ready", Duration.ofSeconds(90),
        c -> "DecryptionFailed".equals(c.getReason()));
    assertEquals("decryption Secret '" + ns() + "/not-there' not found", missing.getMessage());
    assertNull(engine.client.secrets().inNamespace(ns()).withName("db-credentials").get());
    assertNoPlaintextOutside();
  }

  /** No decrypted value and no key in any Kustomization's status or any event. */
  private static void assertNoPlaintextOutside() {
    String identity = fixture("keys/test-only.agekey").lines()
        .filter(l -> l.startsWith("AGE-SECRET-KEY")).findFirst().orElseThrow();
    for (Kustomization ks : engine.client.resources(Kustomization.class).inNamespace(ns()).list().getItems()) {
      String status = Serialization.asYaml(ks.getStatus());
      assertFalse(status.contains("plaintext"), status);
      assertFalse(status.contains(identity), status);
    }
    for (Event event : engine.client.v1().events().inNamespace(ns()).list().getItems()) {
      assertFalse(String.valueOf(event.getMessage()).contains("plaintext"), event.getMessage());
      assertFalse(String.valueOf(event.getMessage()).contains(identity), event.getMessage());
    }
  }
}
