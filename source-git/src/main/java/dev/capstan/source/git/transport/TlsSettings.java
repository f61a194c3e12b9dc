package dev.capstan.source.git.transport;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.core.tls.SecretTls;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The TLS settings an https fetch takes from its Secret ({@link SecretTls}: a client certificate
 * for mutual TLS and authorities trusted beside the JVM's own). The socket factories are made once
 * per fetch, so its requests share TLS sessions and kept-alive connections.
 */
final class TlsSettings {

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
   * @param secretData the Secret's decoded data
   * @return the settings, or null when the Secret holds none of the entries
   * @throws SourceException {@link FailureReason#INVALID_SECRET} naming the unusable entry
   */
  static TlsSettings from(Map<String, byte[]> secretData) {
    SecretTls secret = SecretTls.read(secretData, "the secret");
    if (secret == null) {
      return null;
    }
    TrustManager[] trust = secret.trustManagers();
    AtomicBoolean requested = new AtomicBoolean();
    AtomicBoolean presented = new AtomicBoolean();
    return new TlsSettings(
        socketFactory(new ClientCertificates(secret.clientKeys(), requested, presented), trust),
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

  private static SSLSocketFactory socketFactory(KeyManager keys, TrustManager[] trust) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {keys}, trust, null);
      return new JgitTlsSocketFactory(context.getSocketFactory());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM offers no TLS context", e);
    }
  }
}
