package dev.capstan.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Date;
import java.util.HexFormat;
import java.util.Locale;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;

/** A throwaway OpenPGP key made with Bouncy Castle, to sign test commits and tags with. */
public final class PgpTestKey {

  private final PGPKeyPair pair;
  private final byte[] armoredPublicKey;

  private PgpTestKey(PGPKeyPair pair, byte[] armoredPublicKey) {
    this.pair = pair;
    this.armoredPublicKey = armoredPublicKey;
  }

  public static PgpTestKey generate(String userId) {
    try {
      RSAKeyPairGenerator rsa = new RSAKeyPairGenerator();
      rsa.init(
          new RSAKeyGenerationParameters(
              BigInteger.valueOf(0x10001), new SecureRandom(), 2048, 80));
      PGPKeyPair pair =
          new BcPGPKeyPair(PublicKeyAlgorithmTags.RSA_GENERAL, rsa.generateKeyPair(), new Date());
      PGPKeyRingGenerator rings =
          new PGPKeyRingGenerator(
              PGPSignature.POSITIVE_CERTIFICATION,
              pair,
              userId,
              new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1),
              null,
              null,
              new BcPGPContentSignerBuilder(
                  PublicKeyAlgorithmTags.RSA_GENERAL, HashAlgorithmTags.SHA256),
              null);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (ArmoredOutputStream armored = new ArmoredOutputStream(out)) {
        rings.generatePublicKeyRing().encode(armored);
      }
      return new PgpTestKey(pair, out.toByteArray());
    } catch (PGPException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The public key, ASCII-armored, as a verification Secret holds it. */
  public byte[] armoredPublicKey() {
    return armoredPublicKey.clone();
  }

  public String fingerprint() {
    return HexFormat.of().formatHex(pair.getPublicKey().getFingerprint()).toUpperCase(Locale.ROOT);
  }

  /** An armored detached signature of {@code payload}, as Git stores it in a commit or tag. */
  public byte[] sign(byte[] payload) {
    try {
      PGPSignatureGenerator generator =
          new PGPSignatureGenerator(
              new BcPGPContentSignerBuilder(
                  PublicKeyAlgorithmTags.RSA_GENERAL, HashAlgorithmTags.SHA256),
              pair.getPublicKey());
      generator.init(PGPSignature.BINARY_DOCUMENT, pair.getPrivateKey());
      generator.update(payload);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      try (ArmoredOutputStream armored = new ArmoredOutputStream(out)) {
        generator.generate().encode(armored);
      }
      return out.toByteArray();
    } catch (PGPException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
