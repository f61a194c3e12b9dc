package dev.capstan.decryption;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code sops} entry of a document: the data key encrypted for each recipient, the encrypted
 * MAC and the rules that decided which values are encrypted.
 */
record SopsMetadata(
    String lastModified,
    String mac,
    Optional<PathRules> rules,
    boolean macOnlyEncrypted,
    boolean commentRules,
    List<Recipient> age,
    List<Recipient> pgp) {

  /** Copies of the data key (recipients) a document may list: far more than any team has. */
  static final int MAX_RECIPIENTS = 100;

  /** SOPS' suffix when a document names no rule at all. */
  private static final String DEFAULT_UNENCRYPTED_SUFFIX = "_unencrypted";

  /**
   * One recipient's copy of the data key: its age recipient or PGP fingerprint, and the armored
   * copy.
   */
  record Recipient(String id, String enc) {}

  static SopsMetadata of(Object sops) {
    if (!(sops instanceof Map<?, ?> map)) {
      throw malformed("the sops metadata is not a map");
    }
    if (map.get("key_groups") instanceof List<?> groups && !groups.isEmpty()) {
      throw new DecryptionException(
          DecryptionException.Problem.UNSUPPORTED,
          "the document uses SOPS key groups, which are not supported; encrypt for age or PGP"
              + " recipients");
    }
    String lastModified =
        text(map, "lastmodified").orElseThrow(() -> malformed("sops.lastmodified is missing"));
    String mac = text(map, "mac").orElse("");
    Optional<String> unencryptedSuffix = text(map, "unencrypted_suffix");
    Optional<String> encryptedSuffix = text(map, "encrypted_suffix");
    Optional<String> unencryptedRegex = text(map, "unencrypted_regex");
    Optional<String> encryptedRegex = text(map, "encrypted_regex");
    boolean commentRules =
        text(map, "unencrypted_comment_regex").isPresent()
            || text(map, "encrypted_comment_regex").isPresent();
    Optional<PathRules> rules =
        commentRules
            ? Optional.empty()
            : Optional.of(
                new PathRules(
                    unencryptedSuffix.or(
                        () ->
                            encryptedSuffix.isEmpty()
                                    && unencryptedRegex.isEmpty()
                                    && encryptedRegex.isEmpty()
                                ? Optional.of(DEFAULT_UNENCRYPTED_SUFFIX)
                                : Optional.empty()),
                    encryptedSuffix,
                    unencryptedRegex.map(r -> new BoundedRegex("unencrypted_regex", r)),
                    encryptedRegex.map(r -> new BoundedRegex("encrypted_regex", r))));
    Object onlyEncrypted = map.get("mac_only_encrypted");
    boolean macOnlyEncrypted = Boolean.TRUE.equals(onlyEncrypted) || "true".equals(onlyEncrypted);
    List<Recipient> age = recipients(map.get("age"), "recipient");
    List<Recipient> pgp = recipients(map.get("pgp"), "fp");
    if (age.size() + pgp.size() > MAX_RECIPIENTS) {
      // Each copy may cost a key agreement or a private-key operation to try.
      throw malformed(
          "the sops metadata lists more than " + MAX_RECIPIENTS + " copies of its data key");
    }
    return new SopsMetadata(lastModified, mac, rules, macOnlyEncrypted, commentRules, age, pgp);
  }

  private static List<Recipient> recipients(Object entries, String idKey) {
    List<Recipient> result = new ArrayList<>();
    if (entries instanceof List<?> list) {
      for (Object entry : list) {
        if (entry instanceof Map<?, ?> m && m.get("enc") instanceof String enc) {
          result.add(new Recipient(String.valueOf(m.get(idKey)), enc));
        }
      }
    }
    return List.copyOf(result);
  }

  private static Optional<String> text(Map<?, ?> map, String key) {
    Object value = map.get(key);
    return value == null || value.toString().isEmpty()
        ? Optional.empty()
        : Optional.of(value.toString());
  }

  private static DecryptionException malformed(String message) {
    return new DecryptionException(DecryptionException.Problem.MALFORMED, message);
  }
}
