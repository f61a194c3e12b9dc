package dev.capstan.source.core.proxy;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The proxy a source's {@code spec.proxySecretRef} names, read the same way by every source kind:
 * the Secret's {@code address} ({@code http://host:port}, {@code https://host:port} or {@code
 * socks5://host:port}, without credentials in it) and the optional {@code username} and {@code
 * password}, both or neither. What each client can use of it differs (JGit's connections take any
 * of the three schemes; {@code java.net.http} only a plain http proxy: {@link #forHttpClient}).
 * Failures are {@code INVALID_SECRET} and name the entry, never a value.
 *
 * @param scheme {@code http}, {@code https} or {@code socks5}
 * @param username null when the proxy takes no credentials
 */
public record ProxySecret(String scheme, String host, int port, String username, String password) {

  /** Empty for an empty Secret (no {@code proxySecretRef}: a direct connection). */
  public static Optional<ProxySecret> read(Map<String, byte[]> data) {
    if (data.isEmpty()) {
      return Optional.empty();
    }
    URI uri = address(data);
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") && !scheme.equals("socks5")) {
      throw invalid("the proxy secret's 'address' must use http, https or socks5");
    }
    String username = text(data, "username");
    String password = text(data, "password");
    if ((username == null) != (password == null)) {
      throw invalid(
          "the proxy secret has a "
              + (username == null ? "password" : "username")
              + " but no "
              + (username == null ? "username" : "password"));
    }
    int port =
        uri.getPort() > 0
            ? uri.getPort()
            : switch (scheme) {
              case "https" -> 443;
              case "socks5" -> 1080;
              default -> 80;
            };
    return Optional.of(new ProxySecret(scheme, uri.getHost(), port, username, password));
  }

  /**
   * For a {@code java.net.http} client, which speaks plain HTTP to its proxy and knows no other
   * kind: the address must be {@code http://}.
   */
  public static Optional<ProxySecret> forHttpClient(Map<String, byte[]> data) {
    Optional<ProxySecret> proxy = read(data);
    if (proxy.isPresent() && !proxy.get().scheme().equals("http")) {
      throw invalid("the proxy secret's 'address' must be http://host:port");
    }
    return proxy;
  }

  /**
   * For {@code java.net.URLConnection}s (JGit's), which take any of the three schemes but speak
   * plain HTTP to an HTTP proxy and pass credentials to HTTP proxies only: credentials need an
   * {@code http://} address, or they would travel unencrypted or be ignored.
   */
  public static Optional<ProxySecret> forUrlConnections(Map<String, byte[]> data) {
    Optional<ProxySecret> proxy = read(data);
    if (proxy.isPresent() && proxy.get().hasCredentials() && !proxy.get().scheme().equals("http")) {
      throw invalid(
          "the proxy secret has a username and password, but its 'address' is "
              + proxy.get().scheme()
              + "://: proxy credentials are supported for http:// proxy addresses only");
    }
    return proxy;
  }

  public boolean hasCredentials() {
    return username != null;
  }

  /** {@code scheme://host:port}, for messages: the Secret's address holds no credentials. */
  public String display() {
    return scheme + "://" + host + ":" + port;
  }

  /** The proxy as {@code java.net} connections take it, its host left unresolved. */
  public Proxy proxy() {
    Proxy.Type type = scheme.equals("socks5") ? Proxy.Type.SOCKS : Proxy.Type.HTTP;
    return new Proxy(type, InetSocketAddress.createUnresolved(host, port));
  }

  /** Every request through this proxy, for {@code HttpClient.Builder.proxy}. */
  public ProxySelector selector() {
    // Resolved at each connection, not once when a kept client is built.
    return ProxySelector.of(InetSocketAddress.createUnresolved(host, port));
  }

  /** {@code Basic <user:password>}, for a {@code Proxy-Authorization} header; empty without. */
  public Optional<String> basicAuthorization() {
    if (!hasCredentials()) {
      return Optional.empty();
    }
    byte[] pair = (username + ":" + password).getBytes(StandardCharsets.UTF_8);
    return Optional.of("Basic " + Base64.getEncoder().encodeToString(pair));
  }

  @Override
  public String toString() {
    return "ProxySecret[" + display() + (hasCredentials() ? ", with credentials" : "") + "]";
  }

  private static URI address(Map<String, byte[]> data) {
    String address = text(data, "address");
    if (address == null) {
      throw invalid("the proxy secret has no 'address'");
    }
    URI uri;
    try {
      uri = new URI(address);
    } catch (URISyntaxException e) {
      throw invalid("the proxy secret's 'address' is not a URL");
    }
    if (uri.getHost() == null || uri.getUserInfo() != null) {
      throw invalid("the proxy secret's 'address' must be scheme://host:port without credentials");
    }
    return uri;
  }

  private static String text(Map<String, byte[]> data, String key) {
    byte[] raw = data.get(key);
    // Secrets made with `echo` often end in a newline that is not part of the value.
    String value = raw == null ? "" : new String(raw, StandardCharsets.UTF_8).strip();
    return value.isEmpty() ? null : value;
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_SECRET, message);
  }
}
