package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.store.ArtifactStore;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * What a keyless (Sigstore) signature must satisfy: the trusted root its certificate, log entry and
 * certificate-transparency timestamp are checked against, and the identities its certificate may
 * name (any one of them; any identity when the list is empty, as Flux has it).
 *
 * @param trustedRoot a Sigstore {@code trusted_root.json} (certificate authorities, transparency
 *     logs, CT logs, timestamp authorities)
 * @param identities {@code spec.verify.matchOIDCIdentity}
 */
public record KeylessPolicy(byte[] trustedRoot, List<OidcIdentity> identities) {

  /** The Secret entry of {@code spec.verify.trustedRootSecretRef}, as Flux reads it. */
  public static final String TRUSTED_ROOT_KEY = "trusted_root.json";

  /** The largest trusted root read: the public one is about 10 KiB. */
  static final int MAX_TRUSTED_ROOT = 1 << 20;

  /**
   * One {@code matchOIDCIdentity} entry: regular expressions the certificate's OIDC issuer and
   * subject (its subject alternative name) must match whole.
   */
  public record OidcIdentity(String issuer, String subject) {}

  public KeylessPolicy {
    trustedRoot = trustedRoot.clone();
    identities = List.copyOf(identities);
  }

  /**
   * The policy of a trusted root Secret's data and the identities.
   *
   * @throws SourceException {@link FailureReason#VERIFICATION_FAILED} when the Secret has no {@code
   *     trusted_root.json} or one too large to be a trusted root
   */
  public static KeylessPolicy of(Map<String, byte[]> secret, List<OidcIdentity> identities) {
    byte[] root = secret.get(TRUSTED_ROOT_KEY);
    if (root == null || root.length == 0) {
      throw new SourceException(
          FailureReason.VERIFICATION_FAILED,
          "'" + TRUSTED_ROOT_KEY + "' not found in the trusted root secret");
    }
    if (root.length > MAX_TRUSTED_ROOT) {
      throw new SourceException(
          FailureReason.VERIFICATION_FAILED,
          "the trusted root secret's '"
              + TRUSTED_ROOT_KEY
              + "' is larger than "
              + MAX_TRUSTED_ROOT
              + " bytes");
    }
    return new KeylessPolicy(root, identities);
  }

  @Override
  public byte[] trustedRoot() {
    return trustedRoot.clone();
  }

  /** What identifies this policy in a source's id: another root or identity means a new check. */
  public String identity() {
    StringBuilder text = new StringBuilder(Base64.getEncoder().encodeToString(trustedRoot));
    for (OidcIdentity identity : identities) {
      text.append('\n').append(identity.issuer()).append('\0').append(identity.subject());
    }
    return ArtifactStore.sha256Hex(text.toString());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof KeylessPolicy p
        && Arrays.equals(trustedRoot, p.trustedRoot)
        && identities.equals(p.identities);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(trustedRoot) + identities.hashCode();
  }

  @Override
  public String toString() {
    return "KeylessPolicy[trustedRoot="
        + trustedRoot.length
        + " bytes, identities="
        + identities
        + "]";
  }
}
