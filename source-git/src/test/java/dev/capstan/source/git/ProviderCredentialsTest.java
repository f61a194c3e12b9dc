package dev.capstan.source.git;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.git.github.InstallationTokens;
import dev.capstan.source.git.transport.RemoteUrl;
import dev.capstan.source.git.transport.UrlScheme;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What each provider makes of a request, refusals before any request to the GitHub API. */
class ProviderCredentialsTest {
  private static final String URL = "https://git.example.com/org/repo.git";

  private final ProviderCredentials providers =
      new ProviderCredentials(new InstallationTokens(Clock.systemUTC()), false);

  @Test
  void genericLeavesTheSecretAsItIs() {
    FetchRequest request =
        FetchRequest.of("ns/name", URL, GitRef.branch("main"))
            .withSecretData(Map.of("username", bytes("u"), "password", bytes("p")));
    assertSame(request, providers.apply(request, url(URL), deadline()));
  }

  @Test
  void aGitHubAppUnderTheGenericProviderIsRefusedNotIgnored() {
    FetchRequest request =
        FetchRequest.of("ns/name", URL, GitRef.branch("main"))
            .withSecretData(Map.of("githubAppID", bytes("42")));
    assertRefused(request, URL, FailureReason.INVALID_SPEC, "spec.provider is not 'github'");
  }

  @Test
  void githubNeedsASecret() {
    FetchRequest request =
        FetchRequest.of("ns/name", URL, GitRef.branch("main")).withProvider(GitProvider.GITHUB);
    assertRefused(request, URL, FailureReason.INVALID_SPEC, "needs spec.secretRef");
  }

  @Test
  void githubNeedsAnHttpsUrl() {
    String ssh = "ssh://git@git.example.com/org/repo.git";
    FetchRequest request =
        FetchRequest.of("ns/name", ssh, GitRef.branch("main"))
            .withProvider(GitProvider.GITHUB)
            .withSecretData(Map.of("githubAppID", bytes("42")));
    assertRefused(request, ssh, FailureReason.INVALID_URL, "authenticates over https");
  }

  @Test
  void githubWithAProxyIsRefusedByName() {
    FetchRequest request =
        FetchRequest.of("ns/name", URL, GitRef.branch("main"))
            .withProvider(GitProvider.GITHUB)
            .withSecretData(Map.of("githubAppID", bytes("42")))
            .withProxy(Map.of("address", bytes("http://proxy.example.com:3128")));
    assertRefused(request, URL, FailureReason.INVALID_SPEC, "spec.proxySecretRef");
  }

  @Test
  void anIncompleteAppSecretIsNamedBeforeTheApiIsAsked() {
    FetchRequest request =
        FetchRequest.of("ns/name", URL, GitRef.branch("main"))
            .withProvider(GitProvider.GITHUB)
            .withSecretData(Map.of("githubAppID", bytes("42"), "ca.crt", bytes("ignored")));
    assertRefused(request, URL, FailureReason.INVALID_SECRET, "'githubAppInstallationID'");
  }

  @Test
  void failuresScrubTheKeyAndTokenButNameTheAppAndItsServer() {
    Map<String, byte[]> data =
        Map.of(
            "githubAppID", bytes("123456"),
            "githubAppBaseURL", bytes("https://github.example.com/api/v3"),
            "githubAppPrivateKey", bytes("-----BEGIN RSA PRIVATE KEY-----"),
            "password", bytes("ghs_token"));
    assertEquals(
        Set.of("-----BEGIN RSA PRIVATE KEY-----", "ghs_token"),
        Set.copyOf(ProviderCredentials.secretValues(data)));
  }

  private void assertRefused(
      FetchRequest request, String url, FailureReason reason, String expected) {
    SourceException e =
        assertThrows(SourceException.class, () -> providers.apply(request, url(url), deadline()));
    assertEquals(reason, e.reason());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertFalse(e.getMessage().contains("proxy.example.com:3128@"), e.getMessage());
  }

  private static RemoteUrl url(String text) {
    return RemoteUrl.parse(text, UrlScheme.gitRepository());
  }

  private static Instant deadline() {
    return Instant.now().plusSeconds(30);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
