package dev.capstan.engine.webhook;

import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC computation and constant-time comparison of webhook signatures. */
final class Signatures {
  private Signatures() {}

  /**
   * HMAC of {@code body} with {@code secret}; {@code algorithm} is a JCA name such as HmacSHA256.
   */
  static byte[] hmac(String algorithm, byte[] secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance(algorithm);
      mac.init(new SecretKeySpec(secret, algorithm));
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HMAC " + algorithm + " unavailable", e);
    }
  }

  /** Hex digits decoded, or empty if the text is not hex of the expected length. */
  static Optional<byte[]> hex(String text, int bytes) {
    if (text == null || text.length() != bytes * 2) {
      return Optional.empty();
    }
    try {
      return Optional.of(HexFormat.of().parseHex(text));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** Equal, in time that depends only on the lengths (MessageDigest.isEqual is constant-time). */
  static boolean constantTimeEquals(byte[] a, byte[] b) {
    return MessageDigest.isEqual(a, b);
  }

  /**
   * Equal, in time that reveals neither content nor length: both sides are hashed to the same
   * length first, so a shared token's length cannot be probed either.
   */
  static boolean constantTimeTokenEquals(byte[] given, byte[] secret) {
    try {
      return MessageDigest.isEqual(
          MessageDigest.getInstance("SHA-256").digest(given),
          MessageDigest.getInstance("SHA-256").digest(secret));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
