package dev.capstan.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class RemoteUrlTest {

  @ParameterizedTest
  @CsvSource({
      "https://example.com/org/repo.git, HTTP",
      "http://127.0.0.1:8080/git/repo, HTTP",
      "ssh://git@example.com/org/repo.git, SSH",
      "ssh://example.com:2222/org/repo.git, SSH",
      "git@github.example:org/repo.git, SSH",
      "git://example.com/repo.git, GIT",
      "file:///srv/git/repo, FILE"})
  void acceptsSupportedForms(String url, RemoteUrl.Kind kind) {
    assertEquals(kind, RemoteUrl.parse(url).kind());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "  ", "ftp://example.com/repo", "/srv/repo", "relative/path",
      "https://", "https://example.com", "ssh://example.com/"})
  void rejectsOthersAsInvalidUrl(String url) {
    SourceException e = assertThrows(SourceException.class, () -> RemoteUrl.parse(url));
    assertEquals(FailureReason.INVALID_URL, e.reason());
  }

  @Test
  void sshWithoutUserLogsInAsGit() {
    assertEquals("ssh://git@example.com:2222/org/repo.git",
        RemoteUrl.parse("ssh://example.com:2222/org/repo.git").transportUrl());
    assertEquals("ssh://deploy@example.com/r",
        RemoteUrl.parse("ssh://deploy@example.com/r").transportUrl());
    assertTrue(RemoteUrl.parse("example.com:org/repo.git").transportUrl()
        .startsWith("git@example.com"));
  }

  @Test
  void errorsNeverShowUserInfo() {
    SourceException e = assertThrows(SourceException.class,
        () -> RemoteUrl.parse("ftp://user:hunter2@example.com/repo"));
    assertTrue(!e.getMessage().contains("hunter2") && !e.getMessage().contains("user"),
        e.getMessage());
  }
}
