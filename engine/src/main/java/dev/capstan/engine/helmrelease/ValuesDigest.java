package dev.capstan.engine.helmrelease;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The digest of a HelmRelease's composed values as Flux's helm-controller computes it for {@code
 * status.lastAttemptedConfigDigest} and a history snapshot's {@code configDigest}: {@code
 * sha256:<hex>} of the values written as YAML the way Helm encodes them. Flux's v2 API no longer
 * writes the deprecated {@code lastAttemptedValuesChecksum} (a SHA-1 of v2beta1), and neither does
 * Capstan; this digest is the values checksum that decides whether an unchanged release is left
 * alone.
 */
public final class ValuesDigest {
  private ValuesDigest() {}

  /** {@code sha256:<hex>} of {@code values} as Helm's encoder writes them. */
  public static String of(Map<String, Object> values) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(GoYaml.write(values).getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /** The YAML the digest is computed over, for a test to compare with Helm's encoder. */
  static String encoded(Map<String, Object> values) {
    return GoYaml.write(values);
  }
}
