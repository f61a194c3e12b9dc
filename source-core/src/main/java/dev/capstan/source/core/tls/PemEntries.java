package dev.capstan.source.core.tls;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * The PEM entries of one Secret read as certificates and a private key; a failure names the Secret
 * as its caller does and the entry, never its content.
 *
 * @param secret how messages name the Secret ("the secret", "the cert secret")
 */
public record PemEntries(String secret) {

  List<X509Certificate> certificates(byte[] pem, String entry) {
    checkSize(pem, entry);
    List<X509Certificate> certificates = new ArrayList<>();
    try {
      for (Certificate c :
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem))) {
        if (c instanceof X509Certificate x509) {
          certificates.add(x509);
        }
      }
    } catch (CertificateException | RuntimeException e) {
      throw invalid("'s '" + entry + "' is not a PEM certificate");
    }
    if (certificates.isEmpty()) {
      throw invalid("'s '" + entry + "' holds no certificate");
    }
    return certificates;
  }

  PrivateKey privateKey(byte[] pem) {
    return privateKey(pem, SecretTls.KEY);
  }

  /**
   * The unencrypted PEM private key (PKCS#1, SEC1 or PKCS#8) of the Secret's {@code entry}.
   *
   * @throws SourceException {@link FailureReason#INVALID_SECRET} naming the entry, never its value
   */
  public PrivateKey privateKey(byte[] pem, String entry) {
    checkSize(pem, entry);
    Object object;
    try (PEMParser parser =
        new PEMParser(
            new InputStreamReader(new ByteArrayInputStream(pem), StandardCharsets.UTF_8))) {
      object = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (object instanceof PEMKeyPair pair) {
        return asJdkKey(converter.getKeyPair(pair).getPrivate()); // PKCS#1 (RSA) or SEC1 (EC)
      }
      if (object instanceof PrivateKeyInfo info) {
        return asJdkKey(converter.getPrivateKey(info)); // PKCS#8
      }
    } catch (IOException | RuntimeException e) {
      throw invalid(
          "'s '"
              + entry
              + "' could not be read (an unencrypted PEM private key is expected:"
              + " PKCS#1, SEC1 or PKCS#8; "
              + e.getClass().getSimpleName()
              + ")");
    }
    throw invalid(
        object instanceof PEMEncryptedKeyPair || object instanceof PKCS8EncryptedPrivateKeyInfo
            ? "'s '" + entry + "' is encrypted; an unencrypted private key is expected"
            : "'s '" + entry + "' holds no PEM private key");
  }

  /**
   * The key as the JDK's own provider makes it: with Bouncy Castle registered (another library may
   * register it), an EC key comes back as an "ECDSA" key the JDK's TLS does not sign with.
   */
  private static PrivateKey asJdkKey(PrivateKey key) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "ECDSA", "EC" -> "EC";
          case "EdDSA", "Ed25519" -> "Ed25519";
          default -> key.getAlgorithm();
        };
    try {
      return KeyFactory.getInstance(algorithm)
          .generatePrivate(new PKCS8EncodedKeySpec(key.getEncoded()));
    } catch (GeneralSecurityException | RuntimeException e) {
      return key;
    }
  }

  /** Signs and verifies a probe, so a key of another certificate fails here, not in a handshake. */
  void checkPair(PrivateKey key, X509Certificate certificate) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default ->
              throw invalid(
                  "'s 'tls.key' is a " + key.getAlgorithm() + " key; RSA, EC or Ed25519 is");
        };
    byte[] probe = "tls.key matches tls.crt".getBytes(StandardCharsets.US_ASCII);
    boolean matches;
    try {
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      matches = verifier.verify(signer.sign());
    } catch (GeneralSecurityException | RuntimeException e) {
      matches = false;
    }
    if (!matches) {
      throw invalid("'s 'tls.key' is not the private key of the certificate in 'tls.crt'");
    }
  }

  private void checkSize(byte[] value, String entry) {
    if (value.length > SecretTls.MAX_ENTRY_BYTES) {
      throw invalid("'s '" + entry + "' is larger than " + SecretTls.MAX_ENTRY_BYTES + " bytes");
    }
  }

  /** A failure whose message is the Secret's name followed by {@code rest}. */
  SourceException invalid(String rest) {
    return new SourceException(FailureReason.INVALID_SECRET, secret + rest);
  }
}
