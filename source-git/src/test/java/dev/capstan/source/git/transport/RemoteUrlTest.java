package dev.capstan.source.git.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RemoteUrlTest {

  @ParameterizedTest
  @CsvSource({
    "https://example.com/org/repo.git, HTTPS",
    "http://127.0.0.1:8080/git/repo, HTTP",
    "ssh://git@example.com/org/repo.git, SSH",
    "ssh://example.com:2222/org/repo.git, SSH",
    "git@github.example:org/repo.git, SCP_LIKE",
    "git://example.com/repo.git, GIT",
    "file:///srv/git/repo, FILE"
  })
  void acceptsEveryFormWhenAllAreAllowed(String url, UrlScheme scheme) {
    assertEquals(scheme, RemoteUrl.parse(url, UrlScheme.all()).scheme());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://example.com/org/repo.git",
        "http://127.0.0.1:8080/git/repo",
        "ssh://git@example.com:2222/org/repo.git"
      })
  void gitRepositoryPolicyAcceptsHttpsHttpAndSsh(String url) {
    assertEquals(url, RemoteUrl.parse(url, UrlScheme.gitRepository()).url());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "file:///srv/capstan/sources/other/git | invalid URL"
            + " 'file:///srv/capstan/sources/other/git': scheme 'file' is not allowed here (use"
            + " https://, http://, ssh://)",
        "/srv/capstan/sources/other/git | invalid URL '/srv/capstan/sources/other/git': "
            + "a local path is not allowed here (use https://, http://, ssh://)",
        "git://example.com/repo.git | invalid URL 'git://example.com/repo.git': "
            + "scheme 'git' is not allowed here (use https://, http://, ssh://)",
        "git@example.com:org/repo.git | invalid URL 'example.com:org/repo.git': "
            + "scp-like URLs are not allowed here (use https://, http://, ssh://)"
      })
  void gitRepositoryPolicyRefusesLocalAndOtherForms(String url, String message) {
    SourceException e =
        assertThrows(SourceException.class, () -> RemoteUrl.parse(url, UrlScheme.gitRepository()));
    assertEquals(FailureReason.INVALID_URL, e.reason());
    assertEquals(message, e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "  ",
        "ftp://example.com/repo",
        "/srv/repo",
        "relative/path",
        "https://",
        "https://example.com",
        "ssh://example.com/",
        "https://host/r\n.git"
      })
  void rejectsOthersAsInvalidUrl(String url) {
    SourceException e =
        assertThrows(SourceException.class, () -> RemoteUrl.parse(url, UrlScheme.all()));
    assertEquals(FailureReason.INVALID_URL, e.reason());
  }

  @Test
  void sshWithoutUserLogsInAsGit() {
    assertEquals(
        "ssh://git@example.com:2222/org/repo.git",
        RemoteUrl.parse("ssh://example.com:2222/org/repo.git", UrlScheme.all()).transportUrl());
    assertEquals(
        "ssh://deploy@example.com/r",
        RemoteUrl.parse("ssh://deploy@example.com/r", UrlScheme.all()).transportUrl());
    assertTrue(
        RemoteUrl.parse("example.com:org/repo.git", UrlScheme.all())
            .transportUrl()
            .startsWith("git@example.com"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ftp://user:hunter2-S3CRET@example.com/repo",
        "https://alice:abc/def-S3CRET@host/r.git",
        "https://alice:p@s@s-S3CRET@",
        "file:///x/alice:S3CRET@host",
        "alice:S3CRET@host",
        "HTTPS://alice:S3CRET@host/r",
        "https://alice:S3CRET\n@host/r"
      })
  void errorsNeverShowUserInfo(String url) {
    SourceException e =
        assertThrows(SourceException.class, () -> RemoteUrl.parse(url, UrlScheme.gitRepository()));
    assertFalse(
        e.getMessage().contains("S3CRET")
            || e.getMessage().contains("hunter2")
            || e.getMessage().contains("alice")
            || e.getMessage().contains("user"),
        e.getMessage());
  }

  @Test
  void displayNeverShowsUserInfo() {
    assertEquals(
        "https://host/r.git",
        RemoteUrl.parse("https://alice:p@s@s-S3CRET@host/r.git", UrlScheme.all()).display());
    assertEquals("host:repo", RemoteUrl.parse("alice:PASS@host:repo", UrlScheme.all()).display());
  }

  @Test
  void aRefusalIsToldWithoutFetchingAndWithoutUserInformation() {
    assertEquals(
        Optional.empty(),
        UrlScheme.refusal("https://example.com/org/repo.git", UrlScheme.gitRepository()));
    String refused =
        UrlScheme.refusal("file:///srv/git/other-tenant", UrlScheme.gitRepository()).orElseThrow();
    assertTrue(refused.contains("scheme 'file' is not allowed here"), refused);
    String withUser =
        UrlScheme.refusal("git://bob:S3CRET@host/r.git", UrlScheme.gitRepository()).orElseThrow();
    assertFalse(withUser.contains("S3CRET"), withUser);
  }
}
