package dev.capstan.source.oci;

import dev.capstan.source.core.tls.ClientKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A client certificate offered to one host only. The HTTP client of a pull also talks to the hosts
 * the registry redirects to (blob storage) and to its token realm, and a TLS server there that asks
 * for a client certificate would otherwise be shown the tenant's certificate and a signature of its
 * key. The rule is per host, not per origin: the registry's host on another port is still the
 * registry's machine.
 */
final class HostBoundKeys extends ClientKeyManager {
  private final String host;

  HostBoundKeys(X509ExtendedKeyManager keys, String host) {
    super(keys);
    this.host = normalized(host);
  }

  /** Whether {@code peerHost} (as the TLS engine names it) is the registry's host. */
  boolean offersTo(String peerHost) {
    return peerHost != null && normalized(peerHost).equals(host);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return engine != null && offersTo(engine.getPeerHost())
        ? keys().chooseEngineClientAlias(keyType, issuers, engine)
        : null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    SSLSession session = socket instanceof SSLSocket ssl ? ssl.getHandshakeSession() : null;
    return session != null && offersTo(session.getPeerHost())
        ? keys().chooseClientAlias(keyType, issuers, socket)
        : null;
  }

  private static String normalized(String host) {
    String bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    String lower = bare.toLowerCase(Locale.ROOT);
    // A fully qualified name's trailing dot names the same host.
    return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
  }
}
