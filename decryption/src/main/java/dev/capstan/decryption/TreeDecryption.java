package dev.capstan.decryption;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decrypts the values of a document in document order and computes SOPS' MAC on the way: the
 * SHA-512 of every value (encrypted or not, comments excluded; only encrypted ones with {@code
 * mac_only_encrypted}) as SOPS turns it into bytes, in upper-case hex.
 */
final class TreeDecryption {
  /** What SOPS hashes first with mac_only_encrypted, so the two kinds of MAC never coincide. */
  private static final byte[] MAC_ONLY_ENCRYPTED_INIT =
      HexFormat.of().parseHex("8a3fd2ad54ce66527b1034f3d147be0b0b975b3bf44f72c6fdadec8176f27d69");

  private static final int MAX_DEPTH = DocumentBounds.MAX_DEPTH;

  private final SopsMetadata metadata;
  private final ValueCipher cipher;
  private final MessageDigest digest;
  private final RegexBudget budget;

  /** What the rules said of each key met so far: a key repeated in many places is matched once. */
  private final Map<String, PathRules.KeyMatch> keys = new HashMap<>();

  private final String storedMac;

  /**
   * A document's decryption, its regex work charged to {@code budget} (the document's own). The MAC
   * entry is authenticated here, before any value is: it is the one part of the document that needs
   * no work over the document to check.
   *
   * @throws DecryptionException when the document has no MAC or its MAC entry was not made with the
   *     data key
   */
  TreeDecryption(SopsMetadata metadata, byte[] dataKey, RegexBudget budget) {
    this.metadata = metadata;
    this.cipher = new ValueCipher(dataKey);
    this.budget = budget;
    try {
      this.digest = MessageDigest.getInstance("SHA-512");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-512 is part of every Java runtime", e);
    }
    if (metadata.macOnlyEncrypted()) {
      digest.update(MAC_ONLY_ENCRYPTED_INIT);
    }
    this.storedMac = authenticatedMac();
  }

  /** The decrypted copy of one branch (a document, or a section of one). */
  Object decrypt(Object node) {
    return walk(node, List.of(), PathRules.OnPath.ROOT, 0);
  }

  /** Whether the MAC covers every value (not only the encrypted ones). */
  boolean macCoversAll() {
    return !metadata.macOnlyEncrypted();
  }

  /** The MAC of all values decrypted so far. */
  String mac() {
    return HexFormat.of().withUpperCase().formatHex(digest.digest());
  }

  /** Checks the document's MAC (authenticated when this decryption began) against the values. */
  void verifyMac() {
    if (!mac().equals(storedMac)) {
      throw new DecryptionException(
          DecryptionException.Problem.INTEGRITY,
          "MAC mismatch: the document's values were changed after it was encrypted");
    }
  }

  /** The MAC entry decrypted: it is itself encrypted, under the lastmodified time. */
  private String authenticatedMac() {
    if (metadata.mac().isEmpty()) {
      throw new DecryptionException(
          DecryptionException.Problem.INTEGRITY, "the document has no MAC");
    }
    try {
      return String.valueOf(
          cipher.decrypt(metadata.mac(), RfcTime.normalized(metadata.lastModified())));
    } catch (DecryptionException e) {
      throw new DecryptionException(
          DecryptionException.Problem.INTEGRITY,
          "the MAC does not authenticate under the data key");
    }
  }

  private Object walk(Object node, List<String> path, PathRules.OnPath matched, int depth) {
    if (depth > MAX_DEPTH) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "the document is nested deeper than " + MAX_DEPTH + " levels");
    }
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String key = String.valueOf(entry.getKey());
        if (entry.getValue() instanceof Comment comment) {
          out.put(key, comment(comment, path)); // a comment belongs to its parent's path
          continue;
        }
        List<String> child = new ArrayList<>(path);
        child.add(key);
        out.put(key, walk(entry.getValue(), child, onPath(matched, key), depth + 1));
      }
      return out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object item : list) {
        // List items share their parent's path, as in SOPS.
        out.add(walk(item, path, matched, depth + 1));
      }
      return out;
    }
    if (node == null) {
      return null;
    }
    return leaf(node, path, matched);
  }

  /** What the keys above a value said, with {@code key}'s matches added (none without rules). */
  private PathRules.OnPath onPath(PathRules.OnPath matched, String key) {
    if (metadata.rules().isEmpty()) {
      return matched;
    }
    PathRules.KeyMatch match = keys.get(key);
    if (match == null) {
      match = metadata.rules().get().match(key, budget);
      keys.put(key, match);
    }
    return matched.and(match);
  }

  private Object leaf(Object value, List<String> path, PathRules.OnPath matched) {
    if (value instanceof Comment comment) {
      return comment(comment, path);
    }
    boolean encrypted =
        metadata
            .rules()
            .map(r -> r.encrypted(matched))
            .orElseGet(() -> ValueCipher.looksEncrypted(value)); // comment rules: see SopsDecryptor
    Object plain = value;
    if (encrypted) {
      if (!(value instanceof String text)) {
        throw new DecryptionException(
            DecryptionException.Problem.MALFORMED,
            "the value at '"
                + String.join(".", path)
                + "' should be encrypted but is not a string");
      }
      try {
        plain = cipher.decrypt(text, additionalData(path));
      } catch (DecryptionException e) {
        throw e.in("value at '" + String.join(".", path) + "'");
      }
    }
    if (!metadata.macOnlyEncrypted() || encrypted) {
      digest.update(bytes(plain));
    }
    return plain;
  }

  /** Comments are decrypted when they can be, kept otherwise (SOPS does the same), never hashed. */
  private Object comment(Comment comment, List<String> path) {
    if (!ValueCipher.looksEncrypted(comment.text())) {
      return comment;
    }
    try {
      Object plain = cipher.decrypt(comment.text(), additionalData(path));
      return plain instanceof Comment c ? c : new Comment(String.valueOf(plain));
    } catch (DecryptionException e) {
      return comment;
    }
  }

  private static String additionalData(List<String> path) {
    return String.join(":", path) + ":";
  }

  /** A value's bytes as SOPS hashes them (Go's formatting of ints, floats and booleans). */
  static byte[] bytes(Object value) {
    if (value instanceof byte[] raw) {
      return raw;
    }
    String text;
    if (value instanceof Boolean b) {
      text = b ? "True" : "False";
    } else if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
      text = goFloat(((Number) value).doubleValue());
    } else if (value instanceof Integer
        || value instanceof Long
        || value instanceof BigInteger
        || value instanceof Short) {
      text = value.toString();
    } else if (value instanceof String s) {
      text = s;
    } else {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "the document holds a value of an unsupported type ("
              + value.getClass().getSimpleName()
              + ")");
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Go's strconv.FormatFloat(v, 'f', -1, 64): shortest round-trip digits, never an exponent. */
  private static String goFloat(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return (1 / v < 0) ? "-0" : "0";
    }
    return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }
}
