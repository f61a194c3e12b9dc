package dev.capstan.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretEntriesTest {

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void dataIsDecoded() throws SecretUnavailable {
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withNamespace("team")
            .withName("git")
            .endMetadata()
            .addToData("username", base64("deploy"))
            .build();

    SecretEntries entries = SecretEntries.of(secret);

    assertEquals(Optional.of("deploy"), entries.text("username"));
    assertTrue(entries.has("username"));
    assertFalse(entries.has("password"));
    assertEquals(Optional.empty(), entries.bytes("password"));
    assertEquals("Secret 'team/git'", entries.where());
  }

  @Test
  void stringDataIsWrittenOverData() throws SecretUnavailable {
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName("manifest")
            .endMetadata()
            .addToData("token", base64("old"))
            .addToData("ca.crt", base64("ca"))
            .addToStringData("token", "new")
            .build();

    SecretEntries entries = SecretEntries.of(secret);

    assertEquals(Optional.of("new"), entries.text("token"));
    assertEquals(Optional.of("ca"), entries.text("ca.crt"));
    assertEquals("Secret 'manifest'", entries.where());
  }

  @Test
  void anEntryThatIsNotBase64IsRefusedWithoutItsValue() {
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withNamespace("team")
            .withName("bad")
            .endMetadata()
            .addToData("key", "not base64 at all: s3cr3t!")
            .build();

    SecretUnavailable e = assertThrows(SecretUnavailable.class, () -> SecretEntries.of(secret));

    assertEquals(SecretUnavailable.Kind.MALFORMED, e.kind());
    assertEquals("Secret 'team/bad' entry 'key' is not Base64", e.getMessage());
  }

  @Test
  void aManifestsSecretWithoutNamespaceIsNamedByItsName() {
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName("bad")
            .endMetadata()
            .addToData("key", "not base64 at all: s3cr3t!")
            .build();

    SecretUnavailable e = assertThrows(SecretUnavailable.class, () -> SecretEntries.of(secret));

    assertEquals("Secret 'bad' entry 'key' is not Base64", e.getMessage());
  }

  @Test
  void noValueIsWrittenOutAndValuesCannotBeChanged() throws SecretUnavailable {
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withNamespace("team")
            .withName("git")
            .endMetadata()
            .addToData("password", base64("hunter2"))
            .build();
    SecretEntries entries = SecretEntries.of(secret);

    assertFalse(entries.toString().contains("hunter2"));
    assertTrue(entries.toString().contains("password"));
    entries.bytes("password").orElseThrow()[0] = 'X';
    assertEquals(Optional.of("hunter2"), entries.text("password"));
  }
}
