package dev.capstan.engine.webhook;

/** What a receiver makes of one request, decided before anything is acted on. */
sealed interface Verdict {

  /** Proven and of a triggering event: request the fetch. */
  record Act(String event) implements Verdict {}

  /** Proven, but an event that triggers nothing (e.g. GitHub's ping). */
  record Ignore(String event) implements Verdict {}

  /**
   * Not proven: never acted on. {@code reason} is a fixed metric word, {@code detail} a log text;
   * neither contains request data or the secret.
   */
  record Reject(int status, String reason, String detail) implements Verdict {
    static Reject unsigned(String header) {
      return new Reject(401, "missing_signature", "no " + header + " header");
    }

    static Reject mismatch(String header) {
      return new Reject(403, "bad_signature", header + " does not match the receiver's secret");
    }

    static Reject malformed(String header, String expected) {
      return new Reject(401, "malformed_signature", header + " is not of the form " + expected);
    }
  }
}
