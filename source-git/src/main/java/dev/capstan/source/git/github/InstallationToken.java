package dev.capstan.source.git.github;

import java.time.Instant;

/** An installation access token the GitHub API issued, and when it expires. */
record InstallationToken(String token, Instant expiresAt) {

  @Override
  public String toString() {
    // Never print the token.
    return "InstallationToken[expires " + expiresAt + "]";
  }
}
