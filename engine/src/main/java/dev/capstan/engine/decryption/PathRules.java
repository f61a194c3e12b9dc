package dev.capstan.engine.decryption;

import java.util.List;
import java.util.Optional;

/**
 * Which values SOPS encrypted, decided by the keys on their path as SOPS decides it: an unencrypted
 * suffix or regex turns encryption off for any key on the path; an encrypted suffix or regex, when
 * set, turns it on only where a key on the path matches (later rules win).
 */
record PathRules(
    Optional<String> unencryptedSuffix,
    Optional<String> encryptedSuffix,
    Optional<BoundedRegex> unencryptedRegex,
    Optional<BoundedRegex> encryptedRegex) {

  boolean encrypted(List<String> path) {
    boolean encrypted = true;
    if (unencryptedSuffix.isPresent()
        && path.stream().anyMatch(k -> k.endsWith(unencryptedSuffix.get()))) {
      encrypted = false;
    }
    if (encryptedSuffix.isPresent()) {
      encrypted = path.stream().anyMatch(k -> k.endsWith(encryptedSuffix.get()));
    }
    if (unencryptedRegex.isPresent() && path.stream().anyMatch(unencryptedRegex.get()::find)) {
      encrypted = false;
    }
    if (encryptedRegex.isPresent()) {
      encrypted = path.stream().anyMatch(encryptedRegex.get()::find);
    }
    return encrypted;
  }
}
