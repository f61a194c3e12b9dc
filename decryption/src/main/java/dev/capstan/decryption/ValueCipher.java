package dev.capstan.decryption;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.modes.GCMBlockCipher;
import org.bouncycastle.crypto.params.AEADParameters;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * SOPS' value encryption: {@code ENC[AES256_GCM,data:…,iv:…,tag:…,type:…]}, AES-256-GCM under the
 * data key, with the value's path ({@code a:b:c:}) as additional data, so a value moved to another
 * key does not decrypt.
 */
final class ValueCipher {
  private static final Pattern ENCRYPTED =
      Pattern.compile("^ENC\\[AES256_GCM,data:(.+),iv:(.+),tag:(.+),type:(.+)\\]");
  private static final int TAG_BITS = 128;

  private final byte[] dataKey;

  ValueCipher(byte[] dataKey) {
    this.dataKey = dataKey.clone();
  }

  static boolean looksEncrypted(Object value) {
    return value instanceof String s && ENCRYPTED.matcher(s).find();
  }

  /**
   * The plaintext of an encrypted value, typed as its {@code type} says: String, Long, Double,
   * Boolean, byte[] or {@link Comment}. An empty string stays empty (SOPS does not encrypt it).
   */
  Object decrypt(String value, String additionalData) {
    if (value.isEmpty()) {
      return "";
    }
    Matcher m = ENCRYPTED.matcher(value);
    if (!m.find()) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "a value that should be encrypted is not in SOPS' encrypted form");
    }
    byte[] data = base64(m.group(1));
    byte[] iv = base64(m.group(2));
    byte[] tag = base64(m.group(3));
    byte[] plain = open(data, iv, tag, additionalData.getBytes(StandardCharsets.UTF_8));
    return typed(plain, m.group(4));
  }

  private byte[] open(byte[] data, byte[] iv, byte[] tag, byte[] aad) {
    if (iv.length == 0 || tag.length != TAG_BITS / 8) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "an encrypted value has an IV or tag of the wrong size");
    }
    GCMBlockCipher gcm = (GCMBlockCipher) GCMBlockCipher.newInstance(AESEngine.newInstance());
    gcm.init(false, new AEADParameters(new KeyParameter(dataKey), TAG_BITS, iv, aad));
    byte[] input = new byte[data.length + tag.length];
    System.arraycopy(data, 0, input, 0, data.length);
    System.arraycopy(tag, 0, input, data.length, tag.length);
    byte[] out = new byte[gcm.getOutputSize(input.length)];
    try {
      int n = gcm.processBytes(input, 0, input.length, out, 0);
      gcm.doFinal(out, n);
      return out;
    } catch (InvalidCipherTextException | IllegalStateException e) {
      throw new DecryptionException(
          DecryptionException.Problem.INTEGRITY,
          "an encrypted value does not authenticate under the data key (changed, moved, or "
              + "encrypted with another data key)");
    }
  }

  private static Object typed(byte[] plain, String type) {
    String text = new String(plain, StandardCharsets.UTF_8);
    try {
      return switch (type) {
        case "str" -> isUtf8(plain) ? text : plain; // binary files are "str" of raw bytes
        case "int" -> Long.parseLong(text);
        case "float" -> Double.parseDouble(text);
        case "bool" -> parseBool(text);
        case "bytes" -> plain;
        case "comment" -> new Comment(text);
        default ->
            throw new DecryptionException(
                DecryptionException.Problem.MALFORMED, "an encrypted value has an unknown type");
      };
    } catch (NumberFormatException e) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "an encrypted value of type " + type + " does not hold a " + type);
    }
  }

  private static boolean isUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /** Go's strconv.ParseBool, which SOPS uses. */
  private static Boolean parseBool(String text) {
    return switch (text) {
      case "1", "t", "T", "TRUE", "true", "True" -> true;
      case "0", "f", "F", "FALSE", "false", "False" -> false;
      default -> throw new NumberFormatException();
    };
  }

  private static byte[] base64(String text) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED, "an encrypted value is not valid base64");
    }
  }
}
