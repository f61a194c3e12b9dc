package dev.capstan.source.git.verify;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.bouncycastle.openpgp.PGPCompressedData;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPPublicKeyRingCollection;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;

/**
 * Checks detached OpenPGP signatures (those of Git commits and tags) against a fixed set of trusted
 * public keys, with Bouncy Castle's lightweight API: no keyring of the process's user, no key
 * lookup on the network, no JCA provider registered process-wide.
 */
final class OpenPgpVerifier {

  /** A key file larger than this is not a public key someone meant to trust. */
  static final int MAX_KEY_BYTES = 1 << 20;

  static final int MAX_SIGNATURE_BYTES = 64 << 10;

  private final List<PGPPublicKeyRing> rings;

  private OpenPgpVerifier(List<PGPPublicKeyRing> rings) {
    this.rings = List.copyOf(rings);
  }

  /**
   * @param keys the OpenPGP entries of the Secret; every value must hold armored (or binary) public
   *     keys
   * @throws SourceException {@link FailureReason#INVALID_SECRET} naming the unreadable key
   */
  static OpenPgpVerifier of(Map<String, byte[]> keys) {
    List<PGPPublicKeyRing> rings = new ArrayList<>();
    for (var entry : new TreeMap<>(keys).entrySet()) {
      if (entry.getValue().length > MAX_KEY_BYTES) {
        throw new SourceException(
            FailureReason.INVALID_SECRET,
            "the verification secret's '"
                + entry.getKey()
                + "' is larger than "
                + MAX_KEY_BYTES
                + " bytes");
      }
      int before = rings.size();
      try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(entry.getValue()))) {
        new PGPPublicKeyRingCollection(in, new BcKeyFingerprintCalculator()).forEach(rings::add);
      } catch (IOException | PGPException | RuntimeException e) {
        rings.subList(before, rings.size()).clear();
      }
      if (rings.size() == before) {
        throw new SourceException(
            FailureReason.INVALID_SECRET,
            "the verification secret's '" + entry.getKey() + "' is not an OpenPGP public key");
      }
    }
    if (rings.isEmpty()) {
      throw new SourceException(
          FailureReason.INVALID_SECRET, "the verification secret holds no OpenPGP public key");
    }
    return new OpenPgpVerifier(rings);
  }

  /**
   * Verifies {@code signature} (present, and not of another kind) over {@code payload}.
   *
   * @param what names the signed object in messages, e.g. {@code commit 'abc…'}
   * @return the fingerprint (upper-case hex) of the key that made the signature
   * @throws SourceException {@link FailureReason#VERIFICATION_FAILED} saying why not
   */
  String verify(byte[] signature, byte[] payload, String what) {
    if (signature.length > MAX_SIGNATURE_BYTES) {
      throw failed(
          "the signature of " + what + " is larger than " + MAX_SIGNATURE_BYTES + " bytes");
    }
    PGPSignature sig = parse(signature, what);
    PGPPublicKey key =
        keyOf(sig.getKeyID())
            .orElseThrow(
                () ->
                    failed(
                        what
                            + " is signed with key "
                            + keyId(sig.getKeyID())
                            + ", which is not one of the trusted keys"));
    try {
      sig.init(new BcPGPContentVerifierBuilderProvider(), key);
      sig.update(payload);
      if (!sig.verify()) {
        throw failed(
            "the signature of "
                + what
                + " does not match its content (key "
                + fingerprint(key)
                + ")");
      }
    } catch (PGPException e) {
      throw failed("the signature of " + what + " could not be checked (" + e.getMessage() + ")");
    }
    return fingerprint(key);
  }

  private static PGPSignature parse(byte[] signature, String what) {
    try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(signature))) {
      Object object = new BcPGPObjectFactory(in).nextObject();
      if (object instanceof PGPCompressedData compressed) {
        object = new BcPGPObjectFactory(compressed.getDataStream()).nextObject();
      }
      if (object instanceof PGPSignatureList list && !list.isEmpty()) {
        return list.get(0);
      }
    } catch (IOException | PGPException | RuntimeException e) {
      // falls through to the message below
    }
    throw failed("the signature of " + what + " is not an OpenPGP signature");
  }

  private Optional<PGPPublicKey> keyOf(long keyId) {
    return rings.stream().map(r -> r.getPublicKey(keyId)).filter(Objects::nonNull).findFirst();
  }

  private static String fingerprint(PGPPublicKey key) {
    return HexFormat.of().formatHex(key.getFingerprint()).toUpperCase(Locale.ROOT);
  }

  private static String keyId(long id) {
    return String.format(Locale.ROOT, "%016X", id);
  }

  private static SourceException failed(String message) {
    return new SourceException(FailureReason.VERIFICATION_FAILED, message);
  }
}
