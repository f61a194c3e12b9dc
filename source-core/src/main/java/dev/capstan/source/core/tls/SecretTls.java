package dev.capstan.source.core.tls;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509TrustManager;

/**
 * The client side of TLS that a source's Secret holds, as Flux reads it: {@code tls.crt} (the
 * client certificate and any intermediates in PEM) with {@code tls.key} (its unencrypted private
 * key in PEM: PKCS#1, SEC1 or PKCS#8, RSA, EC or Ed25519), and {@code ca.crt} (authorities trusted
 * beside the JVM's own, as a Go client extends the system pool); the older {@code certFile}, {@code
 * keyFile} and {@code caFile} where the first are missing. Every entry is checked here, so a bad
 * Secret fails before any connection, with a message naming the entry and never its value.
 */
public final class SecretTls {

  public static final String CA = "ca.crt";
  public static final String CERT = "tls.crt";
  public static final String KEY = "tls.key";

  /** A certificate or key entry larger than this is no certificate or key. */
  public static final int MAX_ENTRY_BYTES = 1 << 20;

  private static final char[] STORE_PASSWORD = "in-memory".toCharArray();

  private final TrustManager[] trust;
  private final X509ExtendedKeyManager clientKeys;

  private SecretTls(TrustManager[] trust, X509ExtendedKeyManager clientKeys) {
    this.trust = trust;
    this.clientKeys = clientKeys;
  }

  /**
   * @param data the Secret's decoded data
   * @param secret how messages name the Secret ("the secret", "the cert secret")
   * @return the settings, or null when the Secret holds none of the entries
   * @throws SourceException {@link FailureReason#INVALID_SECRET} naming the unusable entry
   */
  public static SecretTls read(Map<String, byte[]> data, String secret) {
    PemEntries pem = new PemEntries(secret);
    byte[] ca = entry(data, CA, "caFile");
    byte[] cert = entry(data, CERT, "certFile");
    byte[] key = entry(data, KEY, "keyFile");
    if (ca == null && cert == null && key == null) {
      return null;
    }
    if ((cert == null) != (key == null)) {
      throw pem.invalid(
          cert == null
              ? " has a 'tls.key' but no 'tls.crt': a client certificate needs both"
              : " has a 'tls.crt' but no 'tls.key': a client certificate needs both");
    }
    TrustManager[] trust = ca == null ? null : trustManagers(pem, pem.certificates(ca, CA));
    X509ExtendedKeyManager own = null;
    if (cert != null) {
      List<X509Certificate> chain = pem.certificates(cert, CERT);
      PrivateKey privateKey = pem.privateKey(key);
      pem.checkPair(privateKey, chain.get(0));
      own = keyManager(pem, privateKey, chain);
    }
    return new SecretTls(trust, own);
  }

  /** The JVM's trusted authorities and the Secret's; null (the JVM's alone) without {@code ca}. */
  public TrustManager[] trustManagers() {
    return trust == null ? null : trust.clone();
  }

  /**
   * A TLS context of this Secret's authorities and client certificate, for a client that talks to
   * one server (a Helm repository, the GitHub API); source-oci's registries build their own, which
   * offers the certificate to the registry's host only.
   */
  public SSLContext sslContext() throws GeneralSecurityException {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(clientKeys == null ? null : new KeyManager[] {clientKeys}, trustManagers(), null);
    return context;
  }

  /** The key manager of the client certificate, or null when the Secret holds none. */
  public X509ExtendedKeyManager clientKeys() {
    return clientKeys;
  }

  /** The entry, else its older name's; an empty value counts as missing. */
  private static byte[] entry(Map<String, byte[]> data, String name, String olderName) {
    byte[] value = data.get(name);
    if (value == null || value.length == 0) {
      value = data.get(olderName);
    }
    return value == null || value.length == 0 ? null : value;
  }

  private static X509ExtendedKeyManager keyManager(
      PemEntries pem, PrivateKey key, List<X509Certificate> chain) {
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
      throw pem.invalid(
          "'s 'tls.crt' and 'tls.key' cannot be used as a client certificate ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }

  private static TrustManager[] trustManagers(PemEntries pem, List<X509Certificate> authorities) {
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
      throw pem.invalid(
          "'s 'ca.crt' cannot be used as trusted authorities ("
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
}
