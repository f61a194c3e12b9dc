package dev.capstan.source.git.transport;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * The TLS settings an https fetch takes from its Secret: a client certificate for mutual TLS
 * ({@code tls.crt}, the certificate and any intermediates in PEM; {@code tls.key}, its unencrypted
 * private key in PEM: PKCS#1, SEC1 or PKCS#8, RSA, EC or Ed25519) and certificate authorities
 * trusted beside the JVM's own ({@code ca.crt}). The socket factories are made once per fetch, so
 * its requests share TLS sessions and kept-alive connections.
 */
final class TlsSettings {

  /** A certificate or key file larger than this is no certificate or key. */
  static final int MAX_ENTRY_BYTES = 1 << 20;

  private static final char[] STORE_PASSWORD = "in-memory".toCharArray();

  private final SSLSocketFactory remote;
  private final SSLSocketFactory otherOrigins;
  private final AtomicBoolean requested;
  private final AtomicBoolean presented;

  private TlsSettings(
      SSLSocketFactory remote,
      SSLSocketFactory otherOrigins,
      AtomicBoolean requested,
      AtomicBoolean presented) {
    this.remote = remote;
    this.otherOrigins = otherOrigins;
    this.requested = requested;
    this.presented = presented;
  }

  /**
   * @return the settings, or null when the Secret holds none of the entries
   * @throws SourceException {@link FailureReason#INVALID_SECRET} naming the unusable entry
   */
  static TlsSettings from(Credentials credentials) {
    if (!credentials.hasTls()) {
      return null;
    }
    if ((credentials.clientCertificate() == null) != (credentials.clientKey() == null)) {
      throw invalid(
          credentials.clientCertificate() == null
              ? "the secret has a 'tls.key' but no 'tls.crt': a client certificate needs both"
              : "the secret has a 'tls.crt' but no 'tls.key': a client certificate needs both");
    }
    TrustManager[] trust =
        credentials.certificateAuthorities() == null
            ? null
            : trustManagers(certificates(credentials.certificateAuthorities(), "ca.crt"));
    X509ExtendedKeyManager own = null;
    if (credentials.clientCertificate() != null) {
      List<X509Certificate> chain = certificates(credentials.clientCertificate(), "tls.crt");
      PrivateKey key = privateKey(credentials.clientKey());
      checkPair(key, chain.get(0));
      own = keyManager(key, chain);
    }
    AtomicBoolean requested = new AtomicBoolean();
    AtomicBoolean presented = new AtomicBoolean();
    return new TlsSettings(
        socketFactory(new ClientCertificates(own, requested, presented), trust),
        socketFactory(new ClientCertificates(null, requested, presented), trust),
        requested,
        presented);
  }

  /** Whether a server of this fetch asked for a client certificate. */
  boolean clientCertificateRequested() {
    return requested.get();
  }

  /** Whether the Secret's client certificate was offered to a server of this fetch. */
  boolean clientCertificatePresented() {
    return presented.get();
  }

  /** TLS sockets for the remote's own origin: with the client certificate, if any. */
  SSLSocketFactory forRemote() {
    return remote;
  }

  /**
   * TLS sockets for another origin a redirect leads to: the trusted authorities, never the client
   * certificate (a credential of the remote's origin alone).
   */
  SSLSocketFactory forOtherOrigins() {
    return otherOrigins;
  }

  private static List<X509Certificate> certificates(byte[] pem, String entry) {
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
      throw invalid("the secret's '" + entry + "' is not a PEM certificate");
    }
    if (certificates.isEmpty()) {
      throw invalid("the secret's '" + entry + "' holds no certificate");
    }
    return certificates;
  }

  private static PrivateKey privateKey(byte[] pem) {
    checkSize(pem, "tls.key");
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
          "the secret's 'tls.key' could not be read (an unencrypted PEM private key is expected:"
              + " PKCS#1, SEC1 or PKCS#8; "
              + e.getClass().getSimpleName()
              + ")");
    }
    throw invalid(
        object instanceof PEMEncryptedKeyPair || object instanceof PKCS8EncryptedPrivateKeyInfo
            ? "the secret's 'tls.key' is encrypted; an unencrypted private key is expected"
            : "the secret's 'tls.key' holds no PEM private key");
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
  private static void checkPair(PrivateKey key, X509Certificate certificate) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "RSA" -> "SHA256withRSA";
          case "EC" -> "SHA256withECDSA";
          case "Ed25519", "EdDSA" -> "Ed25519";
          default ->
              throw invalid(
                  "the secret's 'tls.key' is a "
                      + key.getAlgorithm()
                      + " key; RSA, EC or Ed25519 is");
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
      throw invalid(
          "the secret's 'tls.key' is not the private key of the certificate in 'tls.crt'");
    }
  }

  private static X509ExtendedKeyManager keyManager(PrivateKey key, List<X509Certificate> chain) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("client", key, STORE_PASSWORD, chain.toArray(new Certificate[0]));
      KeyManagerFactory factory =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(store, STORE_PASSWORD);
      for (KeyManager manager : factory.getKeyManagers()) {
        if (manager instanceof X509ExtendedKeyManager x509) {
          return x509;
        }
      }
      throw new KeyStoreException("no X.509 key manager");
    } catch (Exception e) {
      throw invalid(
          "the secret's 'tls.crt' and 'tls.key' cannot be used as a client certificate ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  /** The JVM's trusted authorities and the Secret's, as a Go client with a CA bundle has them. */
  private static TrustManager[] trustManagers(List<X509Certificate> authorities) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      int n = 0;
      for (X509Certificate anchor : jvmAuthorities()) {
        store.setCertificateEntry("jvm-" + n++, anchor);
      }
      for (X509Certificate authority : authorities) {
        store.setCertificateEntry("secret-" + n++, authority);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers();
    } catch (Exception e) {
      throw invalid(
          "the secret's 'ca.crt' cannot be used as trusted authorities ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  private static List<X509Certificate> jvmAuthorities() throws GeneralSecurityException {
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init((KeyStore) null);
    List<X509Certificate> anchors = new ArrayList<>();
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        anchors.addAll(List.of(x509.getAcceptedIssuers()));
      }
    }
    return anchors;
  }

  private static SSLSocketFactory socketFactory(KeyManager keys, TrustManager[] trust) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {keys}, trust, null);
      return new JgitTlsSocketFactory(context.getSocketFactory());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM offers no TLS context", e);
    }
  }

  private static void checkSize(byte[] value, String entry) {
    if (value.length > MAX_ENTRY_BYTES) {
      throw invalid("the secret's '" + entry + "' is larger than " + MAX_ENTRY_BYTES + " bytes");
    }
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_SECRET, message);
  }
}
