package dev.capstan.source.git.transport;

import dev.capstan.source.core.tls.ClientKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The client side of TLS client authentication for one fetch: offers the Secret's certificate, if
 * there is one, and notes whether a server asked for a certificate and whether it got one. With TLS
 * 1.3 a server that refuses the certificate says so only after the client's handshake is done, and
 * a request written meanwhile may meet a reset connection instead of the server's alert; what was
 * asked and offered tells that failure apart from a network one.
 */
final class ClientCertificates extends ClientKeyManager {

  private final AtomicBoolean requested;
  private final AtomicBoolean presented;

  /**
   * @param delegate the key manager of the Secret's certificate, or null to offer none
   * @param requested set when a server asks for a client certificate
   * @param presented set when this one offers its certificate
   */
  ClientCertificates(
      X509ExtendedKeyManager delegate, AtomicBoolean requested, AtomicBoolean presented) {
    super(delegate);
    this.requested = requested;
    this.presented = presented;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return chosen(keys() == null ? null : keys().chooseClientAlias(keyType, issuers, socket));
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return chosen(keys() == null ? null : keys().chooseEngineClientAlias(keyType, issuers, engine));
  }

  private String chosen(String alias) {
    requested.set(true);
    if (alias != null) {
      presented.set(true);
    }
    return alias;
  }
}
