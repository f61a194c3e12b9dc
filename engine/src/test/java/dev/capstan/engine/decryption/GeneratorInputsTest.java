package dev.capstan.engine.decryption;

import static dev.capstan.engine.decryption.SopsFixtures.encrypted;
import static dev.capstan.engine.decryption.SopsFixtures.keys;
import static dev.capstan.engine.decryption.SopsFixtures.plain;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

  private DecryptionException refused(String path) {
    DecryptionException e = assertThrows(DecryptionException.class, () -> decrypt(path));
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

  /** The text with the character after {@code prefix} changed. */
  static String tampered(String text, String prefix) {
    int at = text.indexOf(prefix) + prefix.length();
    char replacement = text.charAt(at) == 'A' ? 'B' : 'A';
    return text.substring(0, at) + replacement + text.substring(at + 1);
  }
}
