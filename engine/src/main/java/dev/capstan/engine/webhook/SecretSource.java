package dev.capstan.engine.webhook;

/** Where a receiver's shared secret comes from; read when a request arrives. */
interface SecretSource {

  /**
   * The secret's bytes; throws {@link IllegalStateException} naming the source when unavailable.
   */
  byte[] secret();

  /** Where the secret is, for messages (never the secret itself). */
  String describe();
}
