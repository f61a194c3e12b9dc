package dev.capstan.source.oci;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Optional;

/**
 * Checks a cosign signature made with a key pair, as cosign stores it: a manifest tagged {@code
 * sha256-<hex>.sig} beside the artifact, each of whose layers is a simple-signing payload (JSON
 * naming the signed manifest's digest) with its base64 signature in the layer's annotation {@code
 * dev.cosignproject.cosign/signature}. A signature counts when the payload names the artifact's
 * manifest digest and one of the trusted keys verifies it. Keyless signatures are {@link
 * SigstoreVerifier}'s; no transparency-log entry is required of a signature made with a key.
 */
final class CosignVerifier {
  static final String SIGNATURE_ANNOTATION = "dev.cosignproject.cosign/signature";
  static final String PAYLOAD_TYPE = "cosign container image signature";
  static final int MAX_PAYLOAD = 1 << 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  private CosignVerifier() {}

  /**
   * @return the message of the {@code SourceVerified} condition
   * @throws SourceException {@link FailureReason#VERIFICATION_FAILED} when no signature verifies
   */
  static String verify(Registry registry, String digest, String revision, CosignKeys keys) {
    String tag = "sha256-" + digest.substring("sha256:".length()) + ".sig";
    Manifest signatures;
    try {
      signatures = registry.manifest(registry.resolve(tag));
    } catch (SourceException e) {
      if (e.reason() == FailureReason.AUTHENTICATION_FAILED) {
        throw e;
      }
      throw failed("no signature found for " + digest + " (tag " + tag + ")");
    }
    for (Descriptor layer : signatures.layers()) {
      Optional<String> key = check(registry, layer, digest, keys);
      if (key.isPresent()) {
        return "verified signature of revision " + revision + " with key '" + key.get() + "'";
      }
    }
    throw failed(
        "no matching signatures were found for '"
            + registry.client().url().display()
            + "@"
            + digest
            + "'");
  }

  private static Optional<String> check(
      Registry registry, Descriptor layer, String digest, CosignKeys keys) {
    String encoded = layer.annotations().get(SIGNATURE_ANNOTATION);
    if (encoded == null) {
      return Optional.empty();
    }
    byte[] signature;
    try {
      signature = Base64.getDecoder().decode(encoded.trim());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    byte[] payload = registry.smallBlob(layer, MAX_PAYLOAD, FailureReason.VERIFICATION_FAILED);
    if (!namesDigest(payload, digest)) {
      return Optional.empty();
    }
    for (CosignKeys.NamedKey key : keys.keys()) {
      if (verifies(key.key(), payload, signature)) {
        return Optional.of(key.name());
      }
    }
    return Optional.empty();
  }

  static boolean namesDigest(byte[] payload, String digest) {
    try {
      JsonNode critical = JSON.readTree(payload).path("critical");
      return PAYLOAD_TYPE.equals(critical.path("type").asText())
          && digest.equals(critical.path("image").path("docker-manifest-digest").asText());
    } catch (IOException e) {
      return false;
    }
  }

  static boolean verifies(PublicKey key, byte[] payload, byte[] signature) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "EC" -> "SHA256withECDSA";
          case "RSA" -> "SHA256withRSA";
          default -> "Ed25519";
        };
    try {
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(key);
      verifier.update(payload);
      return verifier.verify(signature);
    } catch (GeneralSecurityException | RuntimeException e) {
      return false;
    }
  }

  private static SourceException failed(String message) {
    return new SourceException(
        FailureReason.VERIFICATION_FAILED,
        "failed to verify the signature using provider 'cosign': " + message);
  }
}
