package dev.capstan.source.git.github;

import dev.capstan.source.core.RecentlyUsed;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * GitHub App installation tokens for the fetches of {@code spec.provider: github}, kept per Secret
 * content (app, installation, key and API URL) until {@link #REFRESH_BEFORE} before they expire: a
 * GitHub token lives an hour, so a source checked every minute asks the API about once an hour, and
 * a fetch never starts with a token about to expire. At most {@link #MAX} are kept. A token is
 * never logged; the caller's failure messages scrub it with the Secret's values.
 */
public final class InstallationTokens {
  /** The user name Git hosts take an installation token with, as Flux sends it. */
  public static final String USERNAME = "x-access-token";

  static final Duration REFRESH_BEFORE = Duration.ofMinutes(5);
  static final int MAX = 256;

  /** Asks the API for a new token. */
  interface Issuer {
    InstallationToken issue(GitHubAppSecret app, Map<String, byte[]> secretData, Instant deadline);
  }

  private final Clock clock;
  private final Issuer issuer;
  private final Map<String, InstallationToken> byCacheKey = new RecentlyUsed<>(MAX);

  /** Tokens from the GitHub API itself. */
  public InstallationTokens(Clock clock) {
    this(clock, new GitHubApi(clock));
  }

  InstallationTokens(Clock clock, Issuer issuer) {
    this.clock = clock;
    this.issuer = issuer;
  }

  /**
   * A token of the app the Secret names: the one kept for its content, or a new one.
   *
   * @param secretData the GitRepository Secret's data, with the keys {@link GitHubAppSecret} reads
   *     and the TLS entries the Git transport reads
   * @param plainHttpAllowed whether an {@code http://} API URL may receive the app's token
   * @param deadline when the fetch must be done
   * @throws dev.capstan.source.core.SourceException naming a missing or bad key, or what the API
   *     answered
   */
  public String token(Map<String, byte[]> secretData, boolean plainHttpAllowed, Instant deadline) {
    GitHubAppSecret app = GitHubAppSecret.read(secretData, plainHttpAllowed);
    InstallationToken kept = kept(app.cacheKey());
    if (kept != null) {
      return kept.token();
    }
    InstallationToken issued = issuer.issue(app, secretData, deadline);
    synchronized (byCacheKey) {
      byCacheKey.put(app.cacheKey(), issued);
    }
    return issued.token();
  }

  /** The token kept for {@code cacheKey} while it has more than {@link #REFRESH_BEFORE} left. */
  private InstallationToken kept(String cacheKey) {
    synchronized (byCacheKey) {
      InstallationToken token = byCacheKey.get(cacheKey);
      if (token != null && clock.instant().plus(REFRESH_BEFORE).isBefore(token.expiresAt())) {
        return token;
      }
      byCacheKey.remove(cacheKey);
      return null;
    }
  }
}
