package dev.capstan.source.git.transport;

import dev.capstan.source.core.RecentlyUsed;
import dev.capstan.source.core.proxy.ProxySecret;
import dev.capstan.source.core.store.ArtifactStore;
import java.net.Authenticator;
import java.net.PasswordAuthentication;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One authenticator per distinct proxy and credentials, kept for the fetches that use them: the JDK
 * keeps every authenticator's accepted answers in a process-wide cache that never expires, so an
 * authenticator per fetch would add an entry with every fetch. Bounded (least recently used
 * dropped); an authenticator whose answer the proxy refused is replaced, so that a proxy fixed
 * later is asked again.
 */
public final class ProxyAuthenticators {
  static final int MAX = 256;

  private record Key(String host, int port, String credentialsDigest) {}

  private final Map<Key, ProxyCredentials> byKey = new RecentlyUsed<>(MAX);

  /** The authenticator for {@code settings}' proxy and credentials. */
  synchronized Authenticator forProxy(ProxySecret settings) {
    Key key =
        new Key(
            settings.host().toLowerCase(Locale.ROOT),
            settings.port(),
            ArtifactStore.sha256Hex(settings.username() + "\0" + settings.password()));
    ProxyCredentials existing = byKey.get(key);
    if (existing != null && !existing.wasRefused()) {
      return existing;
    }
    ProxyCredentials created = new ProxyCredentials(settings);
    byKey.put(key, created);
    return created;
  }

  synchronized int size() {
    return byKey.size();
  }

  /**
   * Answers the proxy's challenges with the Secret's username and password. The JDK asks again only
   * when the proxy refused the answer it keeps: then it declines (the JDK reports the 407) instead
   * of sending the same refused credentials again and again.
   */
  static final class ProxyCredentials extends Authenticator {
    private final String host;
    private final int port;
    private final String username;
    private final char[] password;
    private final AtomicInteger asked = new AtomicInteger();

    ProxyCredentials(ProxySecret settings) {
      this.host = settings.host().toLowerCase(Locale.ROOT);
      this.port = settings.port();
      this.username = settings.username();
      this.password = settings.password().toCharArray();
    }

    boolean wasRefused() {
      return asked.get() > 1;
    }

    @Override
    protected PasswordAuthentication getPasswordAuthentication() {
      if (getRequestorType() != RequestorType.PROXY
          || getRequestingPort() != port
          || getRequestingHost() == null
          || !host.equals(getRequestingHost().toLowerCase(Locale.ROOT))) {
        return null;
      }
      if (asked.getAndIncrement() > 0) {
        return null;
      }
      return new PasswordAuthentication(username, password.clone());
    }
  }
}
