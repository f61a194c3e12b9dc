package dev.capstan.testing;

/** No cluster could be found or started for the integration tests. */
public final class NoClusterException extends RuntimeException {
  NoClusterException(String message) {
    super(message);
  }
}
