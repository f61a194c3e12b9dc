package dev.capstan.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Certificates made by the registry tests: a CA, and server or client certificates it signs, ECDSA
 * P-256, valid for a day, written as PEM.
 */
public final class RegistryPki {
  private RegistryPki() {}

  /** A key pair and its certificate. */
  public record Issued(KeyPair keys, X509Certificate certificate) {
    public String certificatePem() {
      return pem(certificate);
    }

    /** PKCS#8, which every TLS stack reads (Go's too). */
    public String keyPem() {
      return "-----BEGIN PRIVATE KEY-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'})
              .encodeToString(keys.getPrivate().getEncoded())
          + "\n-----END PRIVATE KEY-----\n";
    }

    public void write(Path cert, Path key) throws IOException {
      Files.writeString(cert, certificatePem());
      Files.writeString(key, keyPem());
    }
  }

  public static KeyPair ecKeys() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  public static Issued ca(String name) {
    KeyPair keys = ecKeys();
    return new Issued(keys, sign(name, keys, name, keys, true, false));
  }

  /** A certificate for 127.0.0.1 and localhost, signed by {@code ca}. */
  public static Issued server(Issued ca) {
    KeyPair keys = ecKeys();
    return new Issued(keys, sign("127.0.0.1", keys, "test CA", ca.keys(), false, true));
  }

  public static Issued client(Issued ca, String name) {
    KeyPair keys = ecKeys();
    return new Issued(keys, sign(name, keys, "test CA", ca.keys(), false, false));
  }

  private static X509Certificate sign(
      String subject,
      KeyPair subjectKeys,
      String issuer,
      KeyPair issuerKeys,
      boolean isCa,
      boolean serverNames) {
    try {
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              new X500Name("CN=" + issuer),
              BigInteger.valueOf(now.toEpochMilli()).add(BigInteger.valueOf(System.nanoTime())),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(Duration.ofDays(1))),
              new X500Name("CN=" + subject),
              subjectKeys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
      if (serverNames) {
        builder.addExtension(
            Extension.subjectAlternativeName,
            false,
            new GeneralNames(
                new GeneralName[] {
                  new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                  new GeneralName(GeneralName.dNSName, "localhost")
                }));
      }
      return new JcaX509CertificateConverter()
          .getCertificate(
              builder.build(
                  new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKeys.getPrivate())));
    } catch (Exception e) {
      throw new IllegalStateException("cannot make a test certificate", e);
    }
  }

  public static String pem(Object object) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return text.toString();
  }
}
