package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * The TLS context of a pull, from {@code spec.certSecretRef}: {@code ca.crt} is trusted beside the
 * JVM's own CAs (as Flux extends the system pool), {@code tls.crt} with {@code tls.key} is the
 * client certificate (mutual TLS), offered to the registry's host only (never to a host it
 * redirects to, nor to its token realm elsewhere). Without the Secret, {@code insecure} accepts any
 * certificate.
 */
final class TlsSettings {
  static final String CA = "ca.crt";
  static final String CERT = "tls.crt";
  static final String KEY = "tls.key";

  private TlsSettings() {}

  /**
   * @param registryHost the host (name or address, without port) the client certificate is offered
   *     to
   */
  static SSLContext context(Map<String, byte[]> certSecret, boolean insecure, String registryHost) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      if (certSecret.isEmpty()) {
        if (!insecure) {
          return SSLContext.getDefault();
        }
        context.init(null, new TrustManager[] {new AnyCertificate()}, null);
        return context;
      }
      byte[] cert = certSecret.get(CERT);
      byte[] key = certSecret.get(KEY);
      if ((cert == null) != (key == null)) {
        throw invalid("the cert secret must hold both tls.crt and tls.key, or neither");
      }
      KeyManager[] keyManagers =
          cert == null
              ? null
              : HostBoundKeys.wrap(
                  clientKeys(certificates(cert, CERT), privateKey(key)).getKeyManagers(),
                  registryHost);
      TrustManager[] trust =
          certSecret.containsKey(CA) ? trustWithSystem(certificates(certSecret.get(CA), CA)) : null;
      context.init(keyManagers, trust, null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw invalid(
          "the cert secret's certificates or key cannot be used ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  private static List<X509Certificate> certificates(byte[] pem, String key)
      throws GeneralSecurityException {
    Collection<? extends Certificate> read =
        CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem));
    if (read.isEmpty()) {
      throw invalid("the cert secret's " + key + " holds no PEM certificate");
    }
    List<X509Certificate> certs = new ArrayList<>();
    read.forEach(c -> certs.add((X509Certificate) c));
    return certs;
  }

  private static PrivateKey privateKey(byte[] pem) throws IOException {
    try (PEMParser parser =
        new PEMParser(new StringReader(new String(pem, StandardCharsets.US_ASCII)))) {
      Object object = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (object instanceof PEMKeyPair pair) {
        return converter.getPrivateKey(pair.getPrivateKeyInfo());
      }
      if (object instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      }
      throw invalid("the cert secret's tls.key holds no unencrypted PEM private key");
    }
  }

  private static KeyManagerFactory clientKeys(List<X509Certificate> chain, PrivateKey key)
      throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry("client", key, new char[0], chain.toArray(new Certificate[0]));
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, new char[0]);
    return factory;
  }

  private static TrustManager[] trustWithSystem(List<X509Certificate> cas)
      throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    TrustManagerFactory system =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    system.init((KeyStore) null);
    int i = 0;
    for (TrustManager manager : system.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        for (X509Certificate ca : x509.getAcceptedIssuers()) {
          store.setCertificateEntry("system-" + i++, ca);
        }
      }
    }
    for (X509Certificate ca : cas) {
      store.setCertificateEntry("secret-" + i++, ca);
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return factory.getTrustManagers();
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_SECRET, message);
  }

  /** {@code insecure: true} without a CA: any certificate, any host name (as Flux). */
  private static final class AnyCertificate extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
