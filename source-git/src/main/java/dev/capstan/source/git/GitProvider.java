package dev.capstan.source.git;

/** Who provides a fetch's credentials ({@code spec.provider}), of those this engine implements. */
public enum GitProvider {
  /** The Secret's own credentials: basic auth, a bearer token, an SSH key. */
  GENERIC,
  /** A GitHub App: the Secret names the app and its key, the fetch uses an installation token. */
  GITHUB
}
