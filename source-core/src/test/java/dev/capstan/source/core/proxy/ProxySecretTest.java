package dev.capstan.source.core.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProxySecretTest {

  private static Map<String, byte[]> secret(String... entries) {
    Map<String, byte[]> data = new LinkedHashMap<>();
    for (int i = 0; i < entries.length; i += 2) {
      data.put(entries[i], entries[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return data;
  }

  private static String refusal(Runnable read) {
    SourceException e = assertThrows(SourceException.class, read::run);
    assertEquals(FailureReason.INVALID_SECRET, e.reason());
    return e.getMessage();
  }

  @Test
  void noSecretIsADirectConnection() {
    assertEquals(Optional.empty(), ProxySecret.read(Map.of()));
    assertEquals(Optional.empty(), ProxySecret.forHttpClient(Map.of()));
  }

  @Test
  void anAddressGetsItsSchemesDefaultPortAndATrailingNewlineIsNotPartOfIt() {
    assertEquals(
        "http://proxy.example:80",
        ProxySecret.read(secret("address", "http://proxy.example\n")).orElseThrow().display());
    assertEquals(
        "https://proxy.example:443",
        ProxySecret.read(secret("address", "https://proxy.example")).orElseThrow().display());
    ProxySecret socks = ProxySecret.read(secret("address", "socks5://proxy.example")).orElseThrow();
    assertEquals(1080, socks.port());
    assertEquals(Proxy.Type.SOCKS, socks.proxy().type());
  }

  @Test
  void credentialsComeTogetherAndAreNeverPrinted() {
    ProxySecret proxy =
        ProxySecret.read(
                secret(
                    "address", "http://proxy.example:3128", "username", "alice", "password", "pw"))
            .orElseThrow();
    assertTrue(proxy.hasCredentials());
    assertEquals(Optional.of("Basic YWxpY2U6cHc="), proxy.basicAuthorization());
    assertFalse(proxy.toString().contains("pw"));
    assertTrue(proxy.toString().contains("with credentials"));
    assertEquals(
        "the proxy secret has a username but no password",
        refusal(() -> ProxySecret.read(secret("address", "http://p:1", "username", "alice"))));
    assertEquals(
        "the proxy secret has a password but no username",
        refusal(() -> ProxySecret.read(secret("address", "http://p:1", "password", "pw"))));
  }

  @Test
  void aBadAddressIsRefusedNamingTheEntryNotItsValue() {
    assertEquals(
        "the proxy secret has no 'address'", refusal(() -> ProxySecret.read(secret("x", "y"))));
    String notAUrl = refusal(() -> ProxySecret.read(secret("address", "http://a b:1")));
    assertEquals("the proxy secret's 'address' is not a URL", notAUrl);
    assertEquals(
        "the proxy secret's 'address' must be scheme://host:port without credentials",
        refusal(() -> ProxySecret.read(secret("address", "http://user:secret@p:1"))));
    assertEquals(
        "the proxy secret's 'address' must use http, https or socks5",
        refusal(() -> ProxySecret.read(secret("address", "ftp://p:1"))));
  }

  @Test
  void eachClientTakesWhatItCanUse() {
    assertEquals(
        "the proxy secret's 'address' must be http://host:port",
        refusal(() -> ProxySecret.forHttpClient(secret("address", "socks5://p:1"))));
    assertTrue(ProxySecret.forUrlConnections(secret("address", "socks5://p:1")).isPresent());
    assertTrue(
        refusal(
                () ->
                    ProxySecret.forUrlConnections(
                        secret("address", "https://p:1", "username", "a", "password", "b")))
            .endsWith("proxy credentials are supported for http:// proxy addresses only"));
  }
}
