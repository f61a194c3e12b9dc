package dev.capstan.source.git.github;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import dev.capstan.source.core.tls.PemEntries;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A GitHub App as a GitRepository's Secret names it, under Flux's keys: {@code githubAppID}, one of
 * {@code githubAppInstallationID} and {@code githubAppInstallationOwner}, {@code
 * githubAppPrivateKey} (the app's RSA key, PEM) and optionally {@code githubAppBaseURL} (the API of
 * a GitHub Enterprise Server). Every key is checked here, before any request; a failure names the
 * key, never its value.
 *
 * @param installationId null when the installation is looked up by {@code installationOwner}
 * @param installationOwner null when {@code installationId} is given
 * @param apiBase the API's base URL without a trailing slash
 * @param cacheKey a digest of everything above: tokens are kept per Secret content
 */
record GitHubAppSecret(
    long appId,
    Long installationId,
    String installationOwner,
    RSAPrivateKey privateKey,
    URI apiBase,
    String cacheKey) {

  static final String APP_ID = "githubAppID";
  static final String INSTALLATION_ID = "githubAppInstallationID";
  static final String INSTALLATION_OWNER = "githubAppInstallationOwner";
  static final String PRIVATE_KEY = "githubAppPrivateKey";
  static final String BASE_URL = "githubAppBaseURL";
  static final URI DEFAULT_API = URI.create("https://api.github.com");

  /** A GitHub login: what an organization or user may be called, and all that goes in a path. */
  private static final Pattern LOGIN = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})");

  private static final Pattern NUMBER = Pattern.compile("[0-9]{1,18}");

  /**
   * @param plainHttpAllowed whether a {@code http://} base URL may receive the app's token
   * @throws SourceException {@link FailureReason#INVALID_SECRET} naming the missing or bad key
   */
  static GitHubAppSecret read(Map<String, byte[]> data, boolean plainHttpAllowed) {
    long appId = number(data, APP_ID);
    String id = text(data, INSTALLATION_ID);
    String owner = text(data, INSTALLATION_OWNER);
    if (id != null && owner != null) {
      throw invalid(
          "the secret has both '"
              + INSTALLATION_ID
              + "' and '"
              + INSTALLATION_OWNER
              + "'; the GitHub App's installation is named by one of them");
    }
    if (id == null && owner == null) {
      throw invalid(
          "the secret has neither '"
              + INSTALLATION_ID
              + "' nor '"
              + INSTALLATION_OWNER
              + "': spec.provider 'github' needs one of them");
    }
    if (owner != null && !LOGIN.matcher(owner).matches()) {
      throw invalid("the secret's '" + INSTALLATION_OWNER + "' is not a GitHub login");
    }
    byte[] pem = data.get(PRIVATE_KEY);
    if (pem == null || pem.length == 0) {
      throw missing(PRIVATE_KEY);
    }
    PrivateKey key = new PemEntries("the secret").privateKey(pem, PRIVATE_KEY);
    if (!(key instanceof RSAPrivateKey rsa)) {
      throw invalid(
          "the secret's '"
              + PRIVATE_KEY
              + "' is an "
              + key.getAlgorithm()
              + " key; a GitHub App's private key is RSA");
    }
    URI base = baseUrl(text(data, BASE_URL), plainHttpAllowed);
    String digest =
        ArtifactStore.sha256Hex(
            String.join(
                "\n",
                Long.toString(appId),
                String.valueOf(id),
                String.valueOf(owner),
                base.toString(),
                Base64.getEncoder().encodeToString(pem)));
    return new GitHubAppSecret(
        appId, id == null ? null : number(data, INSTALLATION_ID), owner, rsa, base, digest);
  }

  @Override
  public String toString() {
    return "GitHubAppSecret[app " + appId + ", " + apiBase + "]";
  }

  private static URI baseUrl(String text, boolean plainHttpAllowed) {
    if (text == null) {
      return DEFAULT_API;
    }
    URI uri;
    try {
      uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    } catch (URISyntaxException e) {
      throw invalid("the secret's '" + BASE_URL + "' is not a URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || !(scheme.equals("https") || scheme.equals("http"))) {
      throw invalid(
          "the secret's '"
              + BASE_URL
              + "' must be an https:// URL without credentials, query or fragment, e.g."
              + " https://github.example.com/api/v3");
    }
    if (scheme.equals("http") && !plainHttpAllowed) {
      throw new SourceException(
          FailureReason.INVALID_SECRET,
          "the secret's '"
              + BASE_URL
              + "' is an http:// URL: the GitHub App's token is sent only over https");
    }
    return uri;
  }

  private static long number(Map<String, byte[]> data, String key) {
    String value = text(data, key);
    if (value == null) {
      throw missing(key);
    }
    if (!NUMBER.matcher(value).matches() || Long.parseLong(value) <= 0) {
      throw invalid("the secret's '" + key + "' is not a positive whole number");
    }
    return Long.parseLong(value);
  }

  private static String text(Map<String, byte[]> data, String key) {
    byte[] raw = data.get(key);
    // Secrets made with `echo` often end in a newline that is not part of the value.
    String value = raw == null ? "" : new String(raw, StandardCharsets.UTF_8).strip();
    return value.isEmpty() ? null : value;
  }

  private static SourceException missing(String key) {
    return invalid(
        "the secret has no '"
            + key
            + "': spec.provider 'github' needs "
            + APP_ID
            + ", "
            + PRIVATE_KEY
            + " and "
            + INSTALLATION_ID
            + " or "
            + INSTALLATION_OWNER);
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_SECRET, message);
  }
}
