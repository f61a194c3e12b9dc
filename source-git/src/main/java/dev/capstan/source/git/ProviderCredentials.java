package dev.capstan.source.git;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.git.github.InstallationTokens;
import dev.capstan.source.git.transport.RemoteUrl;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The credentials a fetch's provider gives ({@code spec.provider}): {@code generic} uses the
 * Secret's own; {@code github} swaps the Secret's GitHub App for an installation token, sent as
 * HTTPS basic auth with the user {@code x-access-token}, as Flux sends it. As Flux, a Secret
 * holding a GitHub App under another provider is refused rather than ignored.
 */
final class ProviderCredentials {
  private static final String APP_ID = "githubAppID";

  /** Credentials of the Secret that the installation token replaces. */
  private static final Set<String> REPLACED = Set.of("username", "password", "bearerToken");

  /**
   * The GitHub App's names, which say which app and server refused and are no secret: an app ID of
   * a few digits scrubbed from a message would also blank out every port and count with them.
   */
  private static final Set<String> APP_NAMES =
      Set.of(APP_ID, "githubAppInstallationID", "githubAppInstallationOwner", "githubAppBaseURL");

  private final InstallationTokens tokens;
  private final boolean plainHttpAllowed;

  ProviderCredentials(InstallationTokens tokens, boolean plainHttpAllowed) {
    this.tokens = tokens;
    this.plainHttpAllowed = plainHttpAllowed;
  }

  /** The Secret's values that a failure's message must not show: all but the app's names. */
  static List<String> secretValues(Map<String, byte[]> secretData) {
    return secretData.entrySet().stream()
        .filter(e -> !APP_NAMES.contains(e.getKey()))
        .map(e -> new String(e.getValue(), StandardCharsets.UTF_8))
        .toList();
  }

  /**
   * The request with the secret data its provider yields: unchanged for {@code generic}; for {@code
   * github}, the Secret's TLS entries with the installation token as username and password.
   *
   * @throws SourceException when the provider cannot be used with this request, its Secret is
   *     incomplete, or the API refuses the app
   */
  FetchRequest apply(FetchRequest request, RemoteUrl url, Instant deadline) {
    if (request.provider() == GitProvider.GENERIC) {
      if (request.secretData().containsKey(APP_ID)) {
        throw new SourceException(
            FailureReason.INVALID_SPEC,
            "the secret holds a GitHub App ('" + APP_ID + "') but spec.provider is not 'github'");
      }
      return request;
    }
    if (request.secretData().isEmpty()) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.provider 'github' needs spec.secretRef: a Secret with the GitHub App's "
              + "githubAppID, githubAppPrivateKey and githubAppInstallationID or "
              + "githubAppInstallationOwner");
    }
    if (!url.isHttp()) {
      throw new SourceException(
          FailureReason.INVALID_URL,
          "spec.provider 'github' authenticates over https; '" + url.display() + "' is not");
    }
    if (!request.target().proxy().isEmpty()) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.proxySecretRef with spec.provider 'github' is not supported: the GitHub App's "
              + "token request would not go through the proxy");
    }
    String token = tokens.token(request.secretData(), plainHttpAllowed, deadline);
    Map<String, byte[]> data = new HashMap<>(request.secretData());
    data.keySet().removeAll(REPLACED);
    data.put("username", InstallationTokens.USERNAME.getBytes(StandardCharsets.UTF_8));
    data.put("password", token.getBytes(StandardCharsets.UTF_8));
    return request.withSecretData(data);
  }
}
