package dev.capstan.source.core.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The client side of TLS over the keys of a Secret's certificate: a subclass decides when a server
 * is offered the certificate (which host, what it notes down); the keys are read from the wrapped
 * key manager, and no server side is ever served.
 */
public abstract class ClientKeyManager extends X509ExtendedKeyManager {

  private final X509ExtendedKeyManager keys;

  /**
   * @param keys the key manager of the certificate, or null to offer none
   */
  protected ClientKeyManager(X509ExtendedKeyManager keys) {
    this.keys = keys;
  }

  /** The wrapped key manager, or null when there is no certificate to offer. */
  protected final X509ExtendedKeyManager keys() {
    return keys;
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return keys == null ? null : keys.getClientAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return keys == null ? null : keys.getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return keys == null ? null : keys.getPrivateKey(alias);
  }

  /** Never a server. */
  @Override
  public final String[] getServerAliases(String keyType, Principal[] issuers) {
    return null;
  }

  /** Never a server. */
  @Override
  public final String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return null;
  }

  /** Never a server. */
  @Override
  public final String chooseEngineServerAlias(
      String keyType, Principal[] issuers, SSLEngine engine) {
    return null;
  }
}
