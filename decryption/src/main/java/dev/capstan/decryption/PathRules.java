package dev.capstan.decryption;

import java.util.Optional;

/**
 * Which values SOPS encrypted, decided by the keys on their path as SOPS decides it: an unencrypted
 * suffix or regex turns encryption off for any key on the path; an encrypted suffix or regex, when
 * set, turns it on only where a key on the path matches (later rules win).
 *
 * <p>Each key is matched once, where the walk meets it ({@link #match}); what the keys above a
 * value said travels down with the walk ({@link OnPath}), so that the cost of a document is one
 * match per key, never one per key per value below it.
 */
record PathRules(
    Optional<String> unencryptedSuffix,
    Optional<String> encryptedSuffix,
    Optional<BoundedRegex> unencryptedRegex,
    Optional<BoundedRegex> encryptedRegex) {

  /** What each rule says of one key. */
  record KeyMatch(
      boolean unencryptedSuffix,
      boolean encryptedSuffix,
      boolean unencryptedRegex,
      boolean encryptedRegex) {}

  /** Whether any key on a path matched each rule. */
  record OnPath(
      boolean unencryptedSuffix,
      boolean encryptedSuffix,
      boolean unencryptedRegex,
      boolean encryptedRegex) {
    static final OnPath ROOT = new OnPath(false, false, false, false);

    OnPath and(KeyMatch key) {
      return new OnPath(
          unencryptedSuffix || key.unencryptedSuffix(),
          encryptedSuffix || key.encryptedSuffix(),
          unencryptedRegex || key.unencryptedRegex(),
          encryptedRegex || key.encryptedRegex());
    }
  }

  /** One key against every rule, its regex work charged to {@code budget}. */
  KeyMatch match(String key, RegexBudget budget) {
    return new KeyMatch(
        unencryptedSuffix.isPresent() && key.endsWith(unencryptedSuffix.get()),
        encryptedSuffix.isPresent() && key.endsWith(encryptedSuffix.get()),
        unencryptedRegex.isPresent() && unencryptedRegex.get().find(key, budget),
        encryptedRegex.isPresent() && encryptedRegex.get().find(key, budget));
  }

  /** Whether a value whose path's keys matched as {@code path} says is encrypted. */
  boolean encrypted(OnPath path) {
    boolean encrypted = true;
    if (unencryptedSuffix.isPresent() && path.unencryptedSuffix()) {
      encrypted = false;
    }
    if (encryptedSuffix.isPresent()) {
      encrypted = path.encryptedSuffix();
    }
    if (unencryptedRegex.isPresent() && path.unencryptedRegex()) {
      encrypted = false;
    }
    if (encryptedRegex.isPresent()) {
      encrypted = path.encryptedRegex();
    }
    return encrypted;
  }
}
