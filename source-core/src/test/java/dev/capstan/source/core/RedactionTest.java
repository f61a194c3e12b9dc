package dev.capstan.source.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedactionTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "https://u:p@host/a | https://host/a",
        "ssh://git@host:22/b | ssh://host:22/b",
        "https://alice:abc/def-S3CRET@host/r.git | https://host/r.git",
        "https://alice:p@s@s-S3CRET@host/r.git | https://host/r.git",
        "https://alice:pass word S3CRET@host/r | https://host/r",
        "https://ali%20ce:S3%40CRET@host/r | https://host/r",
        "alice:PASS@host:repo | host:repo",
        "git@host:org/repo | host:org/repo",
        "https://host/org/repo.git | https://host/org/repo.git",
        "file:///srv/git/repo | file:///srv/git/repo"
      })
  void oneUrlLosesAllItsUserInfo(String url, String scrubbed) {
    assertEquals(scrubbed, Redaction.scrubUrl(url));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "fetch https://u:p@host/a and ssh://git@host:22/b failed | fetch https://host:22/b failed",
        "failed to fetch from 'https://alice:p@s@s-S3CRET@host/r.git': not found"
            + " | failed to fetch from 'https://host/r.git': not found",
        "cannot reach 'https://alice:pa ss S3CRET@host/r' (timeout) | cannot reach 'https://host/r'"
            + " (timeout)",
        "https://alice:abc/def-S3CRET@host/r.git: not authorized | https://host/r.git: not"
            + " authorized",
        "https://ali%20ce@[::1]:8080/r: not authorized | https://[::1]:8080/r: not authorized",
        "git clone alice:PA@SS@host:repo failed | git clone host:repo failed",
        "stored artifact for revision 'main@sha1:0123abc' | stored artifact for revision"
            + " 'main@sha1:0123abc'",
        "fetched https://host/r at main@sha1:4f2a9b | fetched https://host/r at main@sha1:4f2a9b",
        "git@host:org/repo is fine | git@host:org/repo is fine"
      })
  void urlsInFreeTextLoseTheirUserInfo(String text, String scrubbed) {
    assertEquals(scrubbed, Redaction.scrubUrls(text));
  }

  @Test
  void eachLineIsScrubbedOnItsOwn() {
    assertEquals(
        "a https://host/r\nb user@example.com",
        Redaction.scrubUrls("a https://u:S3CRET@host/r\nb user@example.com"));
  }

  @Test
  void removesSecretValuesAnywhere() {
    assertEquals(
        "token *** rejected, user ab ok",
        Redaction.scrub("token abcd1234 rejected, user ab ok", List.of("abcd1234\n", "ab")));
  }

  @Test
  void userInfoOfAUrlIsKnownInEveryForm() {
    assertEquals(
        List.of(
            "ali%20ce:S3%40CRET", "ali%20ce", "S3%40CRET", "ali ce:S3@CRET", "ali ce", "S3@CRET"),
        Redaction.userinfoOf("https://ali%20ce:S3%40CRET@host/r"));
    assertEquals(List.of(), Redaction.userinfoOf("https://host/r"));
  }

  @Test
  void hostileTextIsScrubbedInBoundedTime() {
    String many = "x https://" + "a@:".repeat(200_000) + "\n" + "b://@".repeat(200_000);
    String scp = " a:" + "@".repeat(200_000) + " ";
    assertTimeoutPreemptively(
        Duration.ofSeconds(5),
        () -> {
          Redaction.scrubUrls(many);
          Redaction.scrubUrls(scp);
          Redaction.scrubUrl(many);
        });
  }
}
