package dev.capstan.decryption;

/**
 * A document or key that cannot be decrypted. The message names what failed and never holds a
 * decrypted value or key material.
 */
public final class DecryptionException extends RuntimeException {
  /** What went wrong, so that callers can tell a wrong key from a damaged file. */
  public enum Problem {
    /** An entry of the decryption Secret is not a usable key. */
    INVALID_KEY,
    /** None of the keys opens the document's data key. */
    NO_MATCHING_KEY,
    /** The document is not a well-formed SOPS document. */
    MALFORMED,
    /** A value or the MAC does not authenticate: the document was changed after encryption. */
    INTEGRITY,
    /** The document uses a SOPS feature that is not supported (e.g. key groups, cloud KMS only). */
    UNSUPPORTED
  }

  private final Problem problem;

  public DecryptionException(Problem problem, String message) {
    super(message);
    this.problem = problem;
  }

  public Problem problem() {
    return problem;
  }

  /** The same problem, its message prefixed with where it happened. */
  public DecryptionException in(String where) {
    return new DecryptionException(problem, where + ": " + getMessage());
  }
}
