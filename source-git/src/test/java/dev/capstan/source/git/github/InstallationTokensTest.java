package dev.capstan.source.git.github;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.testing.MutableClock;
import dev.capstan.testing.TestPki;
import dev.capstan.testing.TestPki.KeyFormat;
import dev.capstan.testing.TestPki.KeyType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tokens kept per Secret content until shortly before expiry; the Secret's keys checked. */
class InstallationTokensTest {
  private static final TestPki PKI = TestPki.create("GitHub App test");
  private static final String KEY = PKI.client("app", KeyType.RSA).keyPem(KeyFormat.TRADITIONAL);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
  private final List<GitHubAppSecret> asked = new ArrayList<>();
  private final InstallationTokens tokens =
      new InstallationTokens(
          clock,
          (app, data, deadline) -> {
            asked.add(app);
            return new InstallationToken(
                "ghs_token" + asked.size(), clock.instant().plus(Duration.ofHours(1)));
          });

  @Test
  void aTokenIsReusedUntilFiveMinutesBeforeItExpiresThenANewOneIsAskedFor() {
    Map<String, byte[]> secret = secret("42", "7", null);
    assertEquals("ghs_token1", tokens.token(secret, false, deadline()));
    clock.advance(Duration.ofMinutes(54));
    assertEquals("ghs_token1", tokens.token(secret, false, deadline()));
    assertEquals(1, asked.size());

    clock.advance(Duration.ofMinutes(1).plusSeconds(1));
    assertEquals("ghs_token2", tokens.token(secret, false, deadline()));
    assertEquals(2, asked.size());
    assertEquals("ghs_token2", tokens.token(secret, false, deadline()));
    assertEquals(2, asked.size());
  }

  @Test
  void anotherAppInstallationOrKeyGetsItsOwnToken() {
    assertEquals("ghs_token1", tokens.token(secret("42", "7", null), false, deadline()));
    assertEquals("ghs_token2", tokens.token(secret("42", "8", null), false, deadline()));
    assertEquals("ghs_token3", tokens.token(secret("43", "7", null), false, deadline()));
    Map<String, byte[]> otherKey = secret("42", "7", null);
    otherKey.put(
        "githubAppPrivateKey",
        PKI.client("other", KeyType.RSA).keyPem(KeyFormat.PKCS8).getBytes(StandardCharsets.UTF_8));
    assertEquals("ghs_token4", tokens.token(otherKey, false, deadline()));
    assertEquals("ghs_token1", tokens.token(secret("42", "7", null), false, deadline()));
    assertEquals(4, asked.size());
  }

  @Test
  void aTokenThatExpiresSoonIsUsedOnceAndNotKept() {
    InstallationTokens shortLived =
        new InstallationTokens(
            clock,
            (app, data, deadline) -> {
              asked.add(app);
              return new InstallationToken("ghs_short" + asked.size(), clock.instant());
            });
    assertEquals("ghs_short1", shortLived.token(secret("42", "7", null), false, deadline()));
    assertEquals("ghs_short2", shortLived.token(secret("42", "7", null), false, deadline()));
  }

  @Test
  void aRefusalIsNotKept() {
    List<Integer> calls = new ArrayList<>();
    InstallationTokens failingOnce =
        new InstallationTokens(
            clock,
            (app, data, deadline) -> {
              calls.add(1);
              if (calls.size() == 1) {
                throw new SourceException(FailureReason.AUTHENTICATION_FAILED, "refused");
              }
              return new InstallationToken("ghs_after", clock.instant().plus(Duration.ofHours(1)));
            });
    assertThrows(
        SourceException.class, () -> failingOnce.token(secret("42", "7", null), false, deadline()));
    assertEquals("ghs_after", failingOnce.token(secret("42", "7", null), false, deadline()));
  }

  @Test
  void theInstallationIsNamedByIdOrByOwnerAndTheDefaultApiIsGitHubs() {
    tokens.token(secret("42", "7", null), false, deadline());
    tokens.token(secret("42", null, "capstan-org"), false, deadline());
    assertEquals(7L, asked.get(0).installationId());
    assertEquals(null, asked.get(0).installationOwner());
    assertEquals(null, asked.get(1).installationId());
    assertEquals("capstan-org", asked.get(1).installationOwner());
    assertEquals("https://api.github.com", asked.get(0).apiBase().toString());
    assertNotEquals(asked.get(0).cacheKey(), asked.get(1).cacheKey());
  }

  @Test
  void anEnterpriseBaseUrlIsUsedWithoutItsTrailingSlash() {
    Map<String, byte[]> secret = secret("42", "7", null);
    secret.put("githubAppBaseURL", bytes("https://github.example.com/api/v3/\n"));
    tokens.token(secret, false, deadline());
    assertEquals("https://github.example.com/api/v3", asked.get(0).apiBase().toString());
  }

  @Test
  void eachMissingKeyIsNamed() {
    assertRefused(without("githubAppID"), "the secret has no 'githubAppID'");
    assertRefused(without("githubAppPrivateKey"), "the secret has no 'githubAppPrivateKey'");
    assertRefused(
        secret("42", null, null),
        "the secret has neither 'githubAppInstallationID' nor 'githubAppInstallationOwner'");
    assertRefused(
        secret("42", "7", "capstan-org"),
        "the secret has both 'githubAppInstallationID' and 'githubAppInstallationOwner'");
  }

  @Test
  void badValuesAreNamedNeverQuoted() {
    assertRefused(secret("forty-two", "7", null), "'githubAppID' is not a positive whole number");
    assertRefused(
        secret("42", null, "../../admin"), "'githubAppInstallationOwner' is not a GitHub login");
    Map<String, byte[]> notPem = secret("42", "7", null);
    notPem.put("githubAppPrivateKey", bytes("my-private-key-material"));
    assertRefused(notPem, "the secret's 'githubAppPrivateKey'");
    Map<String, byte[]> ec = secret("42", "7", null);
    ec.put("githubAppPrivateKey", bytes(PKI.client("ec", KeyType.EC).keyPem(KeyFormat.PKCS8)));
    assertRefused(ec, "a GitHub App's private key is RSA");
    Map<String, byte[]> plain = secret("42", "7", null);
    plain.put("githubAppBaseURL", bytes("http://github.example.com/api/v3"));
    assertRefused(plain, "the GitHub App's token is sent only over https");
    Map<String, byte[]> withUser = secret("42", "7", null);
    withUser.put("githubAppBaseURL", bytes("https://user:pw@github.example.com/api/v3"));
    assertRefused(withUser, "'githubAppBaseURL' must be an https:// URL without credentials");
    assertTrue(asked.isEmpty(), "nothing was asked of the API");
  }

  @Test
  void plainHttpIsAcceptedWhereTheCallerAllowsIt() {
    Map<String, byte[]> plain = secret("42", "7", null);
    plain.put("githubAppBaseURL", bytes("http://127.0.0.1:8080"));
    assertEquals("ghs_token1", tokens.token(plain, true, deadline()));
  }

  private void assertRefused(Map<String, byte[]> secret, String expected) {
    SourceException e =
        assertThrows(SourceException.class, () -> tokens.token(secret, false, deadline()));
    assertEquals(FailureReason.INVALID_SECRET, e.reason());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertFalse(e.getMessage().contains("PRIVATE KEY"), e.getMessage());
    assertFalse(e.getMessage().contains("my-private-key-material"), e.getMessage());
    assertFalse(e.getMessage().contains("pw@"), e.getMessage());
  }

  private Map<String, byte[]> without(String key) {
    Map<String, byte[]> secret = secret("42", "7", null);
    secret.remove(key);
    return secret;
  }

  private Instant deadline() {
    return clock.instant().plusSeconds(60);
  }

  static Map<String, byte[]> secret(String appId, String installationId, String owner) {
    Map<String, byte[]> data = new HashMap<>();
    data.put("githubAppID", bytes(appId));
    data.put("githubAppPrivateKey", bytes(KEY));
    if (installationId != null) {
      data.put("githubAppInstallationID", bytes(installationId));
    }
    if (owner != null) {
      data.put("githubAppInstallationOwner", bytes(owner));
    }
    return data;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
