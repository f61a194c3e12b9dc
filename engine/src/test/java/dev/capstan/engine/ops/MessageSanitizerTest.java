package dev.capstan.engine.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class MessageSanitizerTest {

  @Test
  void masksCredentialsInUrls() {
    String out = MessageSanitizer.sanitize(
        "fetch https://git:s3cr3t-token@git.example/org/repo.git failed; also ssh://deploy@host:22/x");
    assertFalse(out.contains("s3cr3t"), out);
    assertEquals("fetch https://***@git.example/org/repo.git failed; also ssh://***@host:22/x", out);
  }

  @Test
  void masksBearerTokens() {
    assertEquals("header Authorization: Bearer *** rejected",
        MessageSanitizer.sanitize("header Authorization: Bearer eyJhbGciOi.abc-def_ghi rejected"));
  }

  @Test
  void leavesOrdinaryMessagesAloneAndCapsLength() {
    assertEquals("Applied revision: main@sha1:abc", MessageSanitizer.sanitize("Applied revision: main@sha1:abc"));
    assertEquals("", MessageSanitizer.sanitize(null));
    String long1 = "x".repeat(5000);
    String out = MessageSanitizer.sanitize(long1);
    assertEquals(MessageSanitizer.MAX_LENGTH, out.length());
    assertEquals("...", out.substring(out.length() - 3));
  }
}
