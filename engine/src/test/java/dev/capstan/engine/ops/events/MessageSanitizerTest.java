package dev.capstan.engine.ops.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class MessageSanitizerTest {

  @Test
  void removesUserInfoFromUrlsWhateverThePasswordHolds() {
    assertEquals(
        "fetch https://git.example/org/repo.git failed",
        MessageSanitizer.sanitize(
            "fetch https://git:s3cr3t-token@git.example/org/repo.git failed"));
    assertEquals(
        "invalid URL 'https://host/r.git'",
        MessageSanitizer.sanitize("invalid URL 'https://alice:abc/def-S3CRET@host/r.git'"));
    assertEquals(
        "cannot reach https://host/r",
        MessageSanitizer.sanitize("cannot reach https://alice:p@s@s pass S3CRET@host/r"));
    assertEquals(
        "clone of host:repo failed",
        MessageSanitizer.sanitize("clone of alice:PASS@host:repo failed"));
  }

  @Test
  void scrubsBeforeCuttingSoThatNoPartOfASecretIsLeft() {
    String out =
        MessageSanitizer.sanitize("x".repeat(1010) + " https://alice:S3CRET-long-password@host/r");
    assertFalse(out.contains("alice") || out.contains("S3CR"), out);
  }

  @Test
  void masksBearerTokens() {
    assertEquals(
        "header Authorization: Bearer *** rejected",
        MessageSanitizer.sanitize("header Authorization: Bearer eyJhbGciOi.abc-def_ghi rejected"));
  }

  @Test
  void leavesOrdinaryMessagesAloneAndCapsLength() {
    assertEquals(
        "Applied revision: main@sha1:abc",
        MessageSanitizer.sanitize("Applied revision: main@sha1:abc"));
    assertEquals("", MessageSanitizer.sanitize(null));
    String long1 = "x".repeat(5000);
    String out = MessageSanitizer.sanitize(long1);
    assertEquals(MessageSanitizer.MAX_LENGTH, out.length());
    assertEquals("...", out.substring(out.length() - 3));
  }
}
