package dev.capstan.source;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class RedactionTest {

  @Test
  void removesUserInfoFromEveryUrl() {
    assertEquals("fetch https://host/a and ssh://host:22/b failed",
        Redaction.scrubUrl("fetch https://u:p@host/a and ssh://git@host:22/b failed"));
    assertEquals("git@host:org/repo", Redaction.scrubUrl("git@host:org/repo"));
  }

  @Test
  void removesSecretValuesAnywhere() {
    assertEquals("token *** rejected, user ab ok",
        Redaction.scrub("token abcd1234 rejected, user ab ok",
            List.of("abcd1234\n".getBytes(UTF_8), "ab".getBytes(UTF_8))));
  }
}
