package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.sigstore.KeylessVerificationException;
import dev.sigstore.KeylessVerifier;
import dev.sigstore.VerificationOptions;
import dev.sigstore.VerificationOptions.CertificateMatcher;
import dev.sigstore.bundle.Bundle;
import dev.sigstore.bundle.BundleParseException;
import dev.sigstore.rekor.client.RekorEntry;
import dev.sigstore.strings.RegexSyntaxException;
import dev.sigstore.strings.StringMatcher;
import dev.sigstore.trustroot.SigstoreConfigurationException;
import dev.sigstore.trustroot.SigstoreTrustedRoot;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;

/**
 * Checks a keyless cosign signature offline, with sigstore-java's verifier, against the trusted
 * root of {@code spec.verify.trustedRootSecretRef}: a Sigstore bundle attached to the manifest
 * ({@link SigstoreBundles}) whose certificate chains to one of the root's certificate authorities
 * and carries a CT log's timestamp (SCT) the root trusts, whose signature (a DSSE envelope of an
 * in-toto statement naming the manifest digest, as {@code cosign sign} writes it, or a message
 * signature over the digest) the certificate's key made, whose transparency-log entry matches the
 * envelope and is proven included (inclusion proof and checkpoint signed by a log of the root), and
 * whose certificate names an identity of the policy. Nothing is fetched from Fulcio, Rekor or a TUF
 * repository.
 *
 * <p>The library checks the certificate's validity at the time of a timestamp authority's timestamp
 * but not at the log's integration time when the bundle has none; that check is done here, and the
 * entry's signed entry timestamp (which the library then verifies against the log's key) is
 * required so that the integration time is the log's word.
 */
final class SigstoreVerifier {
  /** At most this many bundles' failures are named in a message. */
  static final int MAX_REASONS = 3;

  /** How sigstore-java's verifier starts the message of a certificate of another identity. */
  static final String IDENTITY_MISMATCH = "No provided certificate identities matched";

  private SigstoreVerifier() {}

  /**
   * @return the message of the {@code SourceVerified} condition
   * @throws SourceException {@link FailureReason#VERIFICATION_FAILED} when no bundle verifies
   */
  static String verify(Registry registry, String digest, String revision, KeylessPolicy policy) {
    KeylessVerifier verifier = verifier(policy);
    VerificationOptions options = options(policy);
    String artifact = registry.client().url().display() + "@" + digest;
    List<byte[]> bundles = SigstoreBundles.of(registry, digest);
    if (bundles.isEmpty()) {
      throw failed(noBundle(registry, digest, artifact));
    }
    byte[] digestBytes = HexFormat.of().parseHex(digest.substring("sha256:".length()));
    List<String> reasons = new ArrayList<>();
    for (byte[] json : bundles) {
      try {
        X509Certificate leaf = check(verifier, options, json, digestBytes);
        return "verified signature of revision " + revision + " (keyless, " + who(leaf) + ")";
      } catch (Refused e) {
        reasons.add(e.getMessage());
      }
    }
    throw failed(
        "no signature of '"
            + artifact
            + "' verifies against the trusted root: "
            + String.join("; ", reasons.subList(0, Math.min(MAX_REASONS, reasons.size()))));
  }

  /** Why one bundle does not verify. */
  private static final class Refused extends Exception {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  private static X509Certificate check(
      KeylessVerifier verifier, VerificationOptions options, byte[] json, byte[] digest)
      throws Refused {
    Bundle bundle;
    try {
      bundle =
          Bundle.from(
              new InputStreamReader(new ByteArrayInputStream(json), StandardCharsets.UTF_8));
    } catch (BundleParseException | RuntimeException e) {
      throw new Refused("a bundle cannot be read (" + detail(e) + ")");
    }
    try {
      verifier.verify(digest, bundle, options);
    } catch (KeylessVerificationException | RuntimeException e) {
      throw new Refused(reason(e));
    }
    X509Certificate leaf = (X509Certificate) bundle.getCertPath().getCertificates().get(0);
    if (bundle.getTimestamps().isEmpty()) {
      checkIntegrationTime(bundle.getEntries().get(0), leaf);
    }
    return leaf;
  }

  /** The certificate must have been valid when the log integrated the signature. */
  private static void checkIntegrationTime(RekorEntry entry, X509Certificate leaf) throws Refused {
    String set = entry.getVerification().getSignedEntryTimestamp();
    if (set == null || set.isEmpty()) {
      throw new Refused(
          "the transparency-log entry has no signed entry timestamp and the bundle no "
              + "timestamp authority's timestamp: the time of signing is not known");
    }
    try {
      leaf.checkValidity(Date.from(entry.getIntegratedTimeInstant()));
    } catch (CertificateException e) {
      throw new Refused(
          "the certificate (valid "
              + leaf.getNotBefore().toInstant()
              + " to "
              + leaf.getNotAfter().toInstant()
              + ") was not valid when the transparency log integrated the signature ("
              + entry.getIntegratedTimeInstant()
              + ")");
    }
  }

  private static KeylessVerifier verifier(KeylessPolicy policy) {
    SigstoreTrustedRoot root;
    try {
      root = SigstoreTrustedRoot.from(new ByteArrayInputStream(policy.trustedRoot()));
    } catch (SigstoreConfigurationException | RuntimeException e) {
      throw failed("the trusted root is not a Sigstore trusted root (" + detail(e) + ")");
    }
    try {
      return KeylessVerifier.builder().trustedRootProvider(() -> root).build();
    } catch (GeneralSecurityException | SigstoreConfigurationException | RuntimeException e) {
      throw failed("the trusted root cannot be used (" + detail(e) + ")");
    }
  }

  private static VerificationOptions options(KeylessPolicy policy) {
    List<CertificateMatcher> matchers = new ArrayList<>();
    for (KeylessPolicy.OidcIdentity identity : policy.identities()) {
      matchers.add(
          CertificateMatcher.fulcio()
              .issuer(regex(identity.issuer(), "issuer"))
              .subjectAlternativeName(regex(identity.subject(), "subject"))
              .build());
    }
    return VerificationOptions.builder().addAllCertificateMatchers(matchers).build();
  }

  private static StringMatcher regex(String pattern, String field) {
    try {
      return StringMatcher.regex(pattern == null ? "" : pattern);
    } catch (RegexSyntaxException e) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.verify.matchOIDCIdentity "
              + field
              + " '"
              + Safe.text(pattern)
              + "' is not a regular expression");
    }
  }

  private static String noBundle(Registry registry, String digest, String artifact) {
    String legacy = "sha256-" + digest.substring("sha256:".length()) + ".sig";
    try {
      registry.resolve(legacy);
    } catch (SourceException e) {
      if (e.reason() == FailureReason.AUTHENTICATION_FAILED) {
        throw e;
      }
      return "no Sigstore bundle is attached to '" + artifact + "'";
    }
    return "no Sigstore bundle is attached to '"
        + artifact
        + "', only a signature in cosign's older form (tag "
        + legacy
        + "), whose log entry carries no inclusion proof, which keyless verification here "
        + "needs: sign with cosign v3 (or v2.6 with --new-bundle-format)";
  }

  /** Who the certificate names: its subject alternative name. */
  private static String who(X509Certificate leaf) {
    try {
      var names = leaf.getSubjectAlternativeNames();
      if (names != null && !names.isEmpty()) {
        return "certificate of '" + Safe.text(String.valueOf(names.iterator().next().get(1))) + "'";
      }
    } catch (CertificateException e) {
      // named by its subject below
    }
    return "certificate of '" + Safe.text(leaf.getSubjectX500Principal().getName()) + "'";
  }

  /**
   * What the library found wrong. An identity mismatch is said in this engine's words: the
   * library's names the expressions, whose URLs (a workflow's {@code ...@refs/tags/v1}) would read
   * as user information to the credential scrubbing every message goes through.
   */
  private static String reason(Exception e) {
    if (String.valueOf(e.getMessage()).startsWith(IDENTITY_MISMATCH)) {
      return "the certificate's OIDC issuer and subject match no entry of "
          + "spec.verify.matchOIDCIdentity";
    }
    return detail(e);
  }

  /** An exception's message and its cause's, which say what the library found wrong. */
  static String detail(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    Throwable cause = e.getCause();
    if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
      message = message + ": " + cause.getMessage();
    }
    return Safe.text(message.replaceAll("\\s+", " "));
  }

  private static SourceException failed(String message) {
    return new SourceException(
        FailureReason.VERIFICATION_FAILED,
        "failed to verify the signature using provider 'cosign': " + message);
  }
}
