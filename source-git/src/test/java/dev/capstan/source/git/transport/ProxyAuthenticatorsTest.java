package dev.capstan.source.git.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.capstan.source.core.proxy.ProxySecret;
import java.net.Authenticator;
import java.net.PasswordAuthentication;
import org.junit.jupiter.api.Test;

/**
 * Fetches with the same proxy and credentials share one authenticator: the JDK caches answers per
 * authenticator for the life of the process, so one per fetch would grow that cache every fetch.
 */
class ProxyAuthenticatorsTest {
  private final ProxyAuthenticators authenticators = new ProxyAuthenticators();

  private static ProxySecret settings(String host, String username, String password) {
    return new ProxySecret("http", host, 3128, username, password);
  }

  private static PasswordAuthentication challenge(Authenticator authenticator, String host) {
    return Authenticator.requestPasswordAuthentication(
        authenticator,
        host,
        null,
        3128,
        "http",
        "proxy",
        "basic",
        null,
        Authenticator.RequestorType.PROXY);
  }

  @Test
  void theSameProxyAndCredentialsShareOneAuthenticatorAndOthersDoNot() {
    Authenticator first = authenticators.forProxy(settings("proxy.example", "alice", "pw"));

    assertSame(first, authenticators.forProxy(settings("PROXY.example", "alice", "pw")));
    assertNotSame(first, authenticators.forProxy(settings("proxy.example", "alice", "other")));
    assertNotSame(first, authenticators.forProxy(settings("proxy.example", "bob", "pw")));
    assertNotSame(first, authenticators.forProxy(settings("other.example", "alice", "pw")));
    assertEquals(4, authenticators.size());
  }

  @Test
  void itAnswersOnlyItsProxyOnceAndIsReplacedAfterARefusal() {
    Authenticator authenticator = authenticators.forProxy(settings("proxy.example", "alice", "pw"));

    assertNull(
        challenge(authenticator, "elsewhere.example"), "another host's challenge is not answered");
    PasswordAuthentication answer = challenge(authenticator, "proxy.example");
    assertEquals("alice", answer.getUserName());
    assertEquals("pw", new String(answer.getPassword()));
    assertNull(
        challenge(authenticator, "proxy.example"), "asked again: the proxy refused the answer");

    assertNotSame(
        authenticator,
        authenticators.forProxy(settings("proxy.example", "alice", "pw")),
        "a refused authenticator is replaced, so a proxy fixed later is asked again");
  }

  @Test
  void atMostMaxAreKept() {
    for (int i = 0; i < ProxyAuthenticators.MAX + 50; i++) {
      authenticators.forProxy(settings("proxy.example", "user" + i, "pw"));
    }
    assertEquals(ProxyAuthenticators.MAX, authenticators.size());
  }
}
