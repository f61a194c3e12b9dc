package dev.capstan.testing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority made with Bouncy Castle, and certificates it signs for test
 * servers (for {@code 127.0.0.1}) and clients, as PEM text (keys in PKCS#1/SEC1 or PKCS#8) or as
 * key stores for an embedded server.
 */
public final class TestPki {

  /** The key algorithms a certificate can have. */
  public enum KeyType {
    RSA,
    EC
  }

  /** How a private key is written: PKCS#1 (RSA) or SEC1 (EC), or PKCS#8. */
  public enum KeyFormat {
    TRADITIONAL,
    PKCS8
  }

  public static final String PASSWORD = "test-only";

  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  private final Issued ca;

  private TestPki(Issued ca) {
    this.ca = ca;
  }

  /** A new authority with an EC P-256 key, valid for a day. */
  public static TestPki create(String name) {
    KeyPair keys = keyPair(KeyType.EC);
    X500Name subject = new X500Name("CN=" + name);
    try {
      X509Certificate certificate =
          sign(
              builder(subject, subject, keys)
                  .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                  .addExtension(
                      Extension.keyUsage,
                      true,
                      new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign)),
              keys);
      return new TestPki(new Issued(keys, certificate, certificate));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The authority's certificate, PEM. */
  public String caPem() {
    return ca.certificatePem();
  }

  /** The authority itself: its certificate and key pair, e.g. to sign tokens with. */
  public Issued authority() {
    return ca;
  }

  /** A key store holding the authority's certificate only, e.g. a server's trust store. */
  public KeyStore trustStore() {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setCertificateEntry("ca", ca.certificate());
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A server certificate for {@code 127.0.0.1} and {@code localhost}. */
  public Issued server(KeyType type) {
    return issue(
        "127.0.0.1",
        type,
        KeyPurposeId.id_kp_serverAuth,
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
              new GeneralName(GeneralName.dNSName, "localhost")
            }));
  }

  /** A client certificate (extended key usage clientAuth) for {@code name}. */
  public Issued client(String name, KeyType type) {
    return issue(name, type, KeyPurposeId.id_kp_clientAuth, null);
  }

  private Issued issue(String name, KeyType type, KeyPurposeId purpose, GeneralNames altNames) {
    KeyPair keys = keyPair(type);
    try {
      X509v3CertificateBuilder builder =
          builder(
                  new X500Name(ca.certificate().getSubjectX500Principal().getName()),
                  new X500Name("CN=" + name),
                  keys)
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      if (altNames != null) {
        builder.addExtension(Extension.subjectAlternativeName, false, altNames);
      }
      return new Issued(keys, sign(builder, ca.keys()), ca.certificate());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JcaX509v3CertificateBuilder builder(
      X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        BigInteger.valueOf(SERIAL.incrementAndGet()),
        Date.from(now.minus(Duration.ofMinutes(5))),
        Date.from(now.plus(Duration.ofDays(1))),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuer) {
    String algorithm =
        issuer.getPrivate().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(
              builder.build(new JcaContentSignerBuilder(algorithm).build(issuer.getPrivate())));
    } catch (OperatorCreationException | GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A new EC P-256 key pair, e.g. for a signature key of a test. */
  public static KeyPair ecKeys() {
    return keyPair(KeyType.EC);
  }

  private static KeyPair keyPair(KeyType type) {
    try {
      KeyPairGenerator generator;
      if (type == KeyType.RSA) {
        generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048, new SecureRandom());
      } else {
        // Bouncy Castle's EC keys carry their curve and public point, so their SEC1 PEM names
        // them as OpenSSL's does (the JDK's would be written without).
        generator = KeyPairGenerator.getInstance("EC", new BouncyCastleProvider());
        generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
      }
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A certificate with its key pair and the certificate of the authority that signed it.
   *
   * @param keys the certificate's key pair
   * @param certificate the certificate
   * @param issuer the authority's certificate
   */
  public record Issued(KeyPair keys, X509Certificate certificate, X509Certificate issuer) {

    /** The certificate, PEM. */
    public String certificatePem() {
      return pem(certificate);
    }

    /** The private key, PEM in PKCS#8, which every TLS stack reads (Go's too). */
    public String keyPem() {
      return keyPem(KeyFormat.PKCS8);
    }

    /** Writes the certificate and the key (PKCS#8), PEM. */
    public void write(Path cert, Path key) throws IOException {
      Files.writeString(cert, certificatePem());
      Files.writeString(key, keyPem());
    }

    /** The private key, PEM in {@code format}. */
    public String keyPem(KeyFormat format) {
      try {
        return format == KeyFormat.PKCS8
            ? pem(new JcaPKCS8Generator(keys.getPrivate(), null))
            : pem(keys);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** A key store with the key and its chain (this certificate, then the authority's). */
    public KeyStore keyStore() {
      try {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(
            "key",
            keys.getPrivate(),
            PASSWORD.toCharArray(),
            new Certificate[] {certificate, issuer});
        return store;
      } catch (GeneralSecurityException | IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** An object (a certificate, a key, a public key) as PEM. */
  public static String pem(Object object) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }
}
