package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.tls.SecretTls;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS context of a pull, from {@code spec.certSecretRef} as {@link SecretTls} reads it: {@code
 * ca.crt} is trusted beside the JVM's own CAs (as Flux extends the system pool), {@code tls.crt}
 * with {@code tls.key} is the client certificate (mutual TLS), offered to the registry's host only
 * (never to a host it redirects to, nor to its token realm elsewhere). Without the Secret, {@code
 * insecure} accepts any certificate.
 */
final class TlsSettings {

  private TlsSettings() {}

  /**
   * @param certSecret the Secret's data ({@link SecretTls}); empty when there is none
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
      SecretTls secret = SecretTls.read(certSecret, "the cert secret");
      if (secret == null) {
        context.init(null, null, null);
        return context;
      }
      KeyManager[] keys =
          secret.clientKeys() == null
              ? null
              : new KeyManager[] {new HostBoundKeys(secret.clientKeys(), registryHost)};
      context.init(keys, secret.trustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new SourceException(
          FailureReason.INVALID_SECRET,
          "the cert secret's certificates or key cannot be used ("
              + e.getClass().getSimpleName()
              + ")");
    }
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
