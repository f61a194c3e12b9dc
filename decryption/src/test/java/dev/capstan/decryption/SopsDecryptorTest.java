package dev.capstan.decryption;

import static dev.capstan.decryption.SopsFixtures.encrypted;
import static dev.capstan.decryption.SopsFixtures.keys;
import static dev.capstan.decryption.SopsFixtures.plain;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The decryptor against documents the real sops (3.9.4) encrypted; see make-fixtures. */
class SopsDecryptorTest {
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = new ObjectMapper();
  private final SopsDecryptor decryptor = new SopsDecryptor();

  private static Object yaml(byte[] content) throws Exception {
    return YAML.readValue(content, Object.class);
  }

  private static String text(byte[] content) {
    return new String(content, StandardCharsets.UTF_8);
  }

  private static DecryptionException fails(
      DecryptionException.Problem problem, Executable call, String... mentions) {
    DecryptionException e = assertThrows(DecryptionException.class, call);
    assertEquals(problem, e.problem(), e.getMessage());
    for (String mention : mentions) {
      assertTrue(e.getMessage().contains(mention), e.getMessage() + " should mention " + mention);
    }
    assertFalse(e.getMessage().contains("plaintext"), "no plaintext in: " + e.getMessage());
    assertFalse(e.getMessage().contains("AGE-SECRET-KEY"), "no key in: " + e.getMessage());
    return e;
  }

  @ParameterizedTest
  @ValueSource(strings = {"secret.age.yaml", "secret.pgp.yaml"})
  void decryptsYamlSecretsWithAgeOrPgp(String name) throws Exception {
    DecryptedDocument doc =
        decryptor.decrypt(
            encrypted(name), SopsFormat.YAML, keys("test-only.agekey", "test-only.asc"));
    assertEquals(yaml(plain("secret.yaml")), yaml(doc.content()));
  }

  @Test
  void eitherRecipientAloneDecryptsADocumentEncryptedForBoth() throws Exception {
    Object expected = yaml(plain("secret.yaml"));
    assertEquals(
        expected,
        yaml(
            decryptor
                .decrypt(
                    encrypted("secret.both.yaml"), SopsFormat.YAML, keys("test-only-other.agekey"))
                .content()));
    assertEquals(
        expected,
        yaml(
            decryptor
                .decrypt(encrypted("secret.both.yaml"), SopsFormat.YAML, keys("test-only.asc"))
                .content()));
  }

  @Test
  void decryptsJson() throws Exception {
    DecryptedDocument doc =
        decryptor.decrypt(encrypted("secret.age.json"), SopsFormat.JSON, keys("test-only.agekey"));
    assertEquals(
        JSON.readValue(plain("secret.json"), Object.class),
        JSON.readValue(doc.content(), Object.class));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "values.unencrypted-suffix.yaml",
        "values.encrypted-suffix.yaml",
        "values.unencrypted-regex.yaml",
        "values.mac-only-encrypted.yaml",
        "values.comment-regex.yaml",
        "values.unencrypted-comment-regex.yaml"
      })
  void honoursTheRulesThatLeftValuesUnencrypted(String name) throws Exception {
    String source = name.contains("comment") ? "commented.yaml" : "values.yaml";
    DecryptedDocument doc =
        decryptor.decrypt(encrypted(name), SopsFormat.YAML, keys("test-only.agekey"));
    assertEquals(yaml(plain(source)), yaml(doc.content()));
  }

  @Test
  void unencryptedValuesStayAsTheyAreAndCountInTheMac() {
    String text = text(encrypted("values.unencrypted-regex.yaml"));
    assertTrue(text.contains("public: visible"));
    byte[] changed =
        text.replace("public: visible", "public: tampered-value").getBytes(StandardCharsets.UTF_8);
    DecryptionException e =
        fails(
            DecryptionException.Problem.INTEGRITY,
            () -> decryptor.decrypt(changed, SopsFormat.YAML, keys("test-only.agekey")),
            "MAC mismatch");
    assertFalse(e.getMessage().contains("tampered-value"));
  }

  @Test
  void withMacOnlyEncryptedAnUnencryptedValueMayChange() throws Exception {
    String text = text(encrypted("values.mac-only-encrypted.yaml"));
    byte[] changed =
        text.replace("public: visible", "public: changed").getBytes(StandardCharsets.UTF_8);
    DecryptedDocument doc = decryptor.decrypt(changed, SopsFormat.YAML, keys("test-only.agekey"));
    assertEquals("changed", ((Map<?, ?>) yaml(doc.content())).get("public"));
  }

  @Test
  void decryptsDotenvIniAndBinary() {
    assertEquals(
        "DB_USER=admin\nDB_PASSWORD=plaintext-env-password\n# a comment\nMULTI=line1\\nline2\n",
        text(
            decryptor
                .decrypt(encrypted("app.env"), SopsFormat.DOTENV, keys("test-only.agekey"))
                .content()));
    String ini =
        text(
            decryptor
                .decrypt(encrypted("app.ini"), SopsFormat.INI, keys("test-only.agekey"))
                .content());
    assertTrue(ini.contains("[database]\nuser = admin\npassword = plaintext-ini-password\n"), ini);
    assertTrue(ini.contains("[cache]\nttl = 60\n"), ini);
    assertFalse(ini.contains("sops"), ini);
    assertArrayEquals(
        plain("cert.bin"),
        decryptor
            .decrypt(encrypted("cert.bin"), SopsFormat.BINARY, keys("test-only.agekey"))
            .content());
  }

  @Test
  void aTamperedMacIsRefused() {
    String text = text(encrypted("secret.age.yaml"));
    String replacement = text.contains("mac: ENC[AES256_GCM,data:A") ? "B" : "A";
    String tampered =
        text.replaceFirst(
            "mac: ENC\\[AES256_GCM,data:.", "mac: ENC[AES256_GCM,data:" + replacement);
    fails(
        DecryptionException.Problem.INTEGRITY,
        () ->
            decryptor.decrypt(
                tampered.getBytes(StandardCharsets.UTF_8),
                SopsFormat.YAML,
                keys("test-only.agekey")),
        "MAC");
  }

  @Test
  void aDroppedEncryptedValueFailsTheMac() {
    String text = text(encrypted("secret.age.yaml"));
    String dropped = text.replaceFirst("(?m)^    token: ENC\\[.*\\]\\n", "");
    assertFalse(dropped.equals(text));
    fails(
        DecryptionException.Problem.INTEGRITY,
        () ->
            decryptor.decrypt(
                dropped.getBytes(StandardCharsets.UTF_8),
                SopsFormat.YAML,
                keys("test-only.agekey")),
        "MAC mismatch");
  }

  @Test
  void aValueMovedToAnotherKeyDoesNotDecrypt() {
    String moved = text(encrypted("secret.age.yaml")).replace("    password: ", "    passw0rd: ");
    fails(
        DecryptionException.Problem.INTEGRITY,
        () ->
            decryptor.decrypt(
                moved.getBytes(StandardCharsets.UTF_8), SopsFormat.YAML, keys("test-only.agekey")),
        "stringData.passw0rd");
  }

  @Test
  void theWrongKeyNamesTheRecipients() {
    fails(
        DecryptionException.Problem.NO_MATCHING_KEY,
        () ->
            decryptor.decrypt(
                encrypted("secret.age.yaml"), SopsFormat.YAML, keys("test-only-unrelated.agekey")),
        "no key of the decryption Secret",
        "age age1");
    fails(
        DecryptionException.Problem.NO_MATCHING_KEY,
        () ->
            decryptor.decrypt(
                encrypted("secret.pgp.yaml"), SopsFormat.YAML, keys("test-only.agekey")),
        "PGP ");
  }

  @Test
  void aCorruptDocumentIsMalformed() {
    fails(
        DecryptionException.Problem.MALFORMED,
        () ->
            decryptor.decrypt(
                "sops: [".getBytes(StandardCharsets.UTF_8),
                SopsFormat.YAML,
                keys("test-only.agekey")));
    fails(
        DecryptionException.Problem.MALFORMED,
        () -> decryptor.decrypt(plain("secret.yaml"), SopsFormat.YAML, keys("test-only.agekey")),
        "not SOPS-encrypted");
  }

  @Test
  void badKeyEntriesAreNamedWithoutTheirContent() {
    DecryptionException e =
        fails(
            DecryptionException.Problem.INVALID_KEY,
            () ->
                DecryptionKeys.fromSecretData(
                    Map.of(
                        "prod.agekey", "AGE-SECRET-KEY-1NOTAKEY".getBytes(StandardCharsets.UTF_8))),
            "prod.agekey");
    assertFalse(e.getMessage().contains("NOTAKEY"));
    fails(
        DecryptionException.Problem.INVALID_KEY,
        () ->
            DecryptionKeys.fromSecretData(
                Map.of("prod.asc", "not a key".getBytes(StandardCharsets.UTF_8))),
        "prod.asc");
  }

  @Test
  void severalAgeIdentitiesInOneEntry() {
    byte[] both =
        (text(SopsFixtures.key("test-only-unrelated.agekey"))
                + text(SopsFixtures.key("test-only.agekey")))
            .getBytes(StandardCharsets.UTF_8);
    DecryptionKeys keys = DecryptionKeys.fromSecretData(Map.of("all.agekey", both));
    assertArrayEquals(
        plain("cert.bin"),
        decryptor.decrypt(encrypted("cert.bin"), SopsFormat.BINARY, keys).content());
  }

  @Test
  void formatsByFileName() {
    assertEquals(SopsFormat.YAML, SopsFormat.forPath("a/b.yml"));
    assertEquals(SopsFormat.JSON, SopsFormat.forPath(".dockerconfigjson"));
    assertEquals(SopsFormat.DOTENV, SopsFormat.forPath("app.env"));
    assertEquals(SopsFormat.INI, SopsFormat.forPath("app.ini"));
    assertEquals(SopsFormat.BINARY, SopsFormat.forPath("tls.crt"));
    assertTrue(SopsFormat.DOTENV.isEncrypted(encrypted("app.env")));
    assertFalse(SopsFormat.DOTENV.isEncrypted(plain("app.env")));
  }
}
