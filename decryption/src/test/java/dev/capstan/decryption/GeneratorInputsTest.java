package dev.capstan.decryption;

import static dev.capstan.decryption.SopsFixtures.encrypted;
import static dev.capstan.decryption.SopsFixtures.keys;
import static dev.capstan.decryption.SopsFixtures.plain;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which secretGenerator inputs are decrypted, found as Flux finds them, and which are refused. */
class GeneratorInputsTest {
  private final SopsDecryptor decryptor = new SopsDecryptor();
  private final DecryptionKeys keys = keys("test-only.agekey");
  @TempDir Path artifact;

  private void write(String path, byte[] content) throws IOException {
    Path file = artifact.resolve(path);
    Files.createDirectories(file.getParent());
    Files.write(file, content);
  }

  private void write(String path, String content) throws IOException {
    write(path, content.getBytes(StandardCharsets.UTF_8));
  }

  private DecryptedInputs decrypt(String path, String... components) throws IOException {
    return GeneratorInputs.decrypt(artifact, path, List.of(components), decryptor, keys);
  }

  private static String text(byte[] content) {
    return new String(content, StandardCharsets.UTF_8);
  }

  /** Refused within seconds: what is read for decryption is bounded before it is parsed. */
  private DecryptionException refused(String path) {
    DecryptionException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () -> assertThrows(DecryptionException.class, () -> decrypt(path)));
    assertEquals(DecryptionException.Problem.MALFORMED, e.problem());
    return e;
  }

  @Test
  void encryptedFilesAndEnvsAreFoundThroughResourcesAndComponentsAndPlainOnesLeftAlone()
      throws IOException {
    write(
        "app/kustomization.yaml",
        """
        resources: [../base, deployment.yaml]
        secretGenerator:
        - name: env
          envs: [app.env, plain.env]
        - name: files
          files: [cert.bin, values.yaml=values.sops, ../shared/settings.ini]
        """);
    write("app/deployment.yaml", "kind: ConfigMap\n");
    write("app/app.env", encrypted("app.env"));
    write("app/plain.env", plain("app.env"));
    write("app/cert.bin", encrypted("cert.bin"));
    write("app/values.sops", encrypted("values.unencrypted-suffix.yaml"));
    write("shared/settings.ini", encrypted("app.ini"));
    write(
        "base/kustomization.yml",
        """
        secretGenerator:
        - name: base
          env: base.env
        """);
    write("base/base.env", encrypted("app.env"));
    write(
        "extra/kustomization.yaml",
        """
        kind: Component
        secretGenerator:
        - name: extra
          envs: [extra.json]
        """);
    write("extra/extra.json", encrypted("secret.age.json"));

    DecryptedInputs inputs = decrypt("./app", "../extra");

    assertEquals(
        Set.of(
            "app/app.env",
            "app/cert.bin",
            "app/values.sops",
            "shared/settings.ini",
            "base/base.env",
            "extra/extra.json"),
        inputs.files().keySet());
    assertTrue(
        text(inputs.files().get("app/app.env")).contains("DB_PASSWORD=plaintext-env-password"));
    assertArrayEquals(plain("cert.bin"), inputs.files().get("app/cert.bin"));
    // The format is the key's (values.yaml), not the file's name.
    assertTrue(
        text(inputs.files().get("app/values.sops"))
            .contains("password_secret: plaintext-password-1"));
    assertTrue(
        text(inputs.files().get("shared/settings.ini"))
            .contains("password = plaintext-ini-password"));
    assertTrue(text(inputs.files().get("extra/extra.json")).contains("plaintext-api-key-7"));
    assertFalse(inputs.files().containsKey("app/plain.env"), "a plain input is left alone");
  }

  @Test
  void aPlainInputIsLeftAloneAndNothingIsDecryptedWithoutEncryptedInputs() throws IOException {
    write(
        "kustomization.yaml",
        "secretGenerator:\n- name: s\n  envs: [app.env]\n  files: [app.ini]\n");
    write("app.env", plain("app.env"));
    write("app.ini", plain("app.ini"));
    assertTrue(decrypt("").isEmpty());
  }

  @Test
  void aPathLeavingTheArtifactIsRefused() throws IOException {
    write("app/kustomization.yaml", "secretGenerator:\n- name: s\n  envs: [../../outside.env]\n");
    DecryptionException e = refused("app");
    assertEquals(
        "'../../outside.env' in app/kustomization.yaml is outside the artifact", e.getMessage());
  }

  @Test
  void aFilesEntryLeavingTheArtifactThroughItsKeyValueFormIsRefused() throws IOException {
    write(
        "app/kustomization.yaml",
        "secretGenerator:\n- name: s\n  files: [key=../../../etc/passwd]\n");
    assertTrue(
        refused("app").getMessage().contains("'../../../etc/passwd' in app/kustomization.yaml"));
  }

  @Test
  void anAbsolutePathIsRefused() throws IOException {
    write("kustomization.yaml", "secretGenerator:\n- name: s\n  files: [/etc/hostname]\n");
    assertEquals(
        "'/etc/hostname' in kustomization.yaml is outside the artifact", refused(".").getMessage());
  }

  @Test
  void aLinkOutOfTheArtifactIsRefused(@TempDir Path elsewhere) throws IOException {
    Files.write(elsewhere.resolve("stolen.env"), encrypted("app.env"));
    write("kustomization.yaml", "secretGenerator:\n- name: s\n  envs: [link.env]\n");
    Files.createSymbolicLink(artifact.resolve("link.env"), elsewhere.resolve("stolen.env"));
    assertEquals(
        "'link.env' in kustomization.yaml is outside the artifact", refused(".").getMessage());
  }

  @Test
  void aSpecPathOrComponentOutOfTheArtifactIsRefused() throws IOException {
    write("kustomization.yaml", "resources: []\n");
    assertTrue(refused("../elsewhere").getMessage().contains("in spec.path"));
    DecryptionException e = assertThrows(DecryptionException.class, () -> decrypt(".", "../../c"));
    assertTrue(e.getMessage().contains("in spec.components"), e.getMessage());
  }

  @Test
  void resourcesOutsideTheArtifactAreNotVisited() throws IOException {
    write("app/kustomization.yaml", "resources: [../../../somewhere]\n");
    assertTrue(decrypt("app").isEmpty());
  }

  @Test
  void aTamperedInputFailsNamingItsPathInTheArtifact() throws IOException {
    write("app/kustomization.yaml", "secretGenerator:\n- name: s\n  envs: [app.env]\n");
    write("app/app.env", tampered(text(encrypted("app.env")), "DB_USER=ENC[AES256_GCM,data:"));
    DecryptionException e = assertThrows(DecryptionException.class, () -> decrypt("app"));
    assertEquals(DecryptionException.Problem.INTEGRITY, e.problem());
    assertTrue(e.getMessage().startsWith("file 'app/app.env': "), e.getMessage());
    assertFalse(e.getMessage().contains("plaintext"), e.getMessage());
  }

  private static byte[] kustomization(String fixture) throws IOException {
    return Files.readAllBytes(SopsFixtures.ROOT.resolve("kustomizations").resolve(fixture));
  }

  @Test
  void aKustomizationPastItsBoundIsRefusedUnparsedNamingIt() throws IOException {
    // One long scalar: read whole, it once ran the engine out of memory.
    Path file = artifact.resolve("app/kustomization.yaml");
    Files.createDirectories(file.getParent());
    try (var out = Files.newOutputStream(file)) {
      out.write("secretGenerator:\n- name: s\n  literals: [\"".getBytes(StandardCharsets.UTF_8));
      byte[] chunk = "x".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < 64; i++) {
        out.write(chunk);
      }
      out.write("\"]\n".getBytes(StandardCharsets.UTF_8));
    }
    DecryptionException e = refused("app");
    assertEquals(
        "file 'app/kustomization.yaml' is larger than 256 KiB, the most a kustomization may be",
        e.getMessage());
  }

  @Test
  void whatIsReadForDecryptionIsBoundedInTotal() throws IOException {
    // 70 kustomizations of 240 KB each, every one under its own bound: 16.8 MB in all.
    String padding = ("# " + "p".repeat(78) + "\n").repeat(3_000);
    for (int i = 0; i < 70; i++) {
      write("k" + i + "/kustomization.yaml", padding + "resources: [../k" + (i + 1) + "]\n");
    }
    DecryptionException e = refused("k0");
    assertTrue(
        e.getMessage()
            .startsWith(
                "the kustomizations and generator inputs read for decryption"
                    + " pass 16 MiB at file 'k"),
        e.getMessage());
  }

  @Test
  void aGeneratorInputPastTheDocumentBoundIsRefusedNamingIt() throws IOException {
    write("kustomization.yaml", "secretGenerator:\n- name: s\n  files: [big.bin]\n");
    write("big.bin", new byte[SopsDecryptor.MAX_DOCUMENT_BYTES + 1]);
    assertEquals(
        "file 'big.bin' is larger than 5 MiB, the most a secretGenerator's input may be",
        refused(".").getMessage());
  }

  @Test
  void aConfigMapGeneratorReadingAnEncryptedFileIsRefused() throws IOException {
    write("app/kustomization.yaml", kustomization("configmap-generator-reads-encrypted.yaml"));
    write("app/app.env", encrypted("app.env"));
    assertEquals(
        "configMapGenerator 'app-settings' in app/kustomization.yaml reads 'app.env', which is"
            + " SOPS-encrypted: decrypted values go only into a secretGenerator's Secret",
        refused("app").getMessage());
  }

  @Test
  void aDecryptedInputReadAsAResourceOrPatchIsRefused() throws IOException {
    write("res/kustomization.yaml", kustomization("resource-reads-decrypted.yaml"));
    write("res/secret.yaml", encrypted("secret.age.yaml"));
    assertEquals(
        "'secret.yaml' in resources of res/kustomization.yaml is a SOPS-encrypted"
            + " secretGenerator input: decrypted values go only into a secretGenerator's Secret",
        refused("res").getMessage());
    write("patch/kustomization.yaml", kustomization("patch-reads-decrypted.yaml"));
    write("patch/app.env", encrypted("app.env"));
    write("patch/deployment.yaml", "kind: Deployment\n");
    assertTrue(
        refused("patch")
            .getMessage()
            .startsWith("'app.env' in patches of patch/kustomization.yaml"));
  }

  @Test
  void aDecryptedInputReadByABuiltinGeneratorConfigurationIsRefused() throws IOException {
    write("app/kustomization.yaml", kustomization("generator-config-reads-decrypted.yaml"));
    write("app/settings-generator.yaml", kustomization("settings-generator.yaml"));
    write("app/app.env", encrypted("app.env"));
    assertEquals(
        "'app.env' in app/settings-generator.yaml (generators of app/kustomization.yaml) is a"
            + " SOPS-encrypted secretGenerator input: decrypted values go only into a"
            + " secretGenerator's Secret",
        refused("app").getMessage());
  }

  /** The text with the character after {@code prefix} changed. */
  static String tampered(String text, String prefix) {
    int at = text.indexOf(prefix) + prefix.length();
    char replacement = text.charAt(at) == 'A' ? 'B' : 'A';
    return text.substring(0, at) + replacement + text.substring(at + 1);
  }
}
