package dev.capstan.source.git.transport;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
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
final class ClientCertificates extends X509ExtendedKeyManager {

  private final X509ExtendedKeyManager delegate;
  private final AtomicBoolean requested;
  private final AtomicBoolean presented;

  /**
   * @param delegate the key manager of the Secret's certificate, or null to offer none
   * @param requested set when a server asks for a client certificate
   * @param presented set when this one offers its certificate
   */
  ClientCertificates(
      X509ExtendedKeyManager delegate, AtomicBoolean requested, AtomicBoolean presented) {
    this.delegate = delegate;
    this.requested = requested;
    this.presented = presented;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return chosen(delegate == null ? null : delegate.chooseClientAlias(keyType, issuers, socket));
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return chosen(
        delegate == null ? null : delegate.chooseEngineClientAlias(keyType, issuers, engine));
  }

  private String chosen(String alias) {
    requested.set(true);
    if (alias != null) {
      presented.set(true);
    }
    return alias;
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return delegate == null ? null : delegate.getClientAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return delegate == null ? null : delegate.getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return delegate == null ? null : delegate.getPrivateKey(alias);
  }

  /** Never a server. */
  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return null;
  }

  /** Never a server. */
  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return null;
  }
}
