package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The trusted cosign public keys of {@code spec.verify.secretRef}: every entry whose name ends in
 * {@code .pub}, PEM {@code PUBLIC KEY} (ECDSA P-256 as {@code cosign generate-key-pair} makes, RSA
 * or Ed25519).
 */
public record CosignKeys(List<NamedKey> keys) {

  private static final Pattern PEM =
      Pattern.compile("-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\\s]+)-----END PUBLIC KEY-----");

  /** A key and the Secret entry it came from. */
  public record NamedKey(String name, PublicKey key) {}

  public CosignKeys {
    keys = List.copyOf(keys);
  }

  /**
   * Reads the keys of a Secret's data.
   *
   * @throws SourceException {@link FailureReason#VERIFICATION_FAILED} when there is no usable key
   */
  public static CosignKeys of(Map<String, byte[]> secret) {
    List<NamedKey> keys = new ArrayList<>();
    for (var entry : new TreeMap<>(secret).entrySet()) {
      if (entry.getKey().endsWith(".pub")) {
        keys.add(new NamedKey(entry.getKey(), parse(entry.getKey(), entry.getValue())));
      }
    }
    if (keys.isEmpty()) {
      throw new SourceException(
          FailureReason.VERIFICATION_FAILED,
          "the verification secret holds no public key (an entry whose name ends in .pub)");
    }
    return new CosignKeys(keys);
  }

  private static PublicKey parse(String name, byte[] pem) {
    Matcher m = PEM.matcher(new String(pem, StandardCharsets.US_ASCII));
    if (!m.find()) {
      throw unusable(name);
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(m.group(1).replaceAll("\\s", ""));
    } catch (IllegalArgumentException e) {
      throw unusable(name);
    }
    for (String algorithm : List.of("EC", "RSA", "Ed25519")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der));
      } catch (Exception e) {
        // not a key of this algorithm; try the next
      }
    }
    throw unusable(name);
  }

  private static SourceException unusable(String name) {
    return new SourceException(
        FailureReason.VERIFICATION_FAILED,
        "the verification secret's '" + Safe.text(name) + "' is not a PEM public key");
  }

  /** What identifies this key set in a source's id: a change of keys means a new check. */
  public String identity() {
    StringBuilder text = new StringBuilder();
    for (NamedKey key : keys) {
      text.append(key.name())
          .append('\0')
          .append(Base64.getEncoder().encodeToString(key.key().getEncoded()))
          .append('\n');
    }
    return ArtifactStore.sha256Hex(text.toString());
  }
}
