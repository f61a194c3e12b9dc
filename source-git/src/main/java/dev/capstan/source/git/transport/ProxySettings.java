package dev.capstan.source.git.transport;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The proxy of {@code spec.proxySecretRef}: the Secret's {@code address} ({@code http://host:port},
 * {@code https://host:port} or {@code socks5://host:port}) that HTTP(S) fetches go through, and for
 * an {@code http://} proxy the optional {@code username} and {@code password} it asks for.
 *
 * @param username null when the proxy takes no credentials
 */
record ProxySettings(
    Proxy proxy, String host, int port, String display, String username, String password) {

  /** Null for an empty Secret reference (a direct connection). */
  static ProxySettings from(Map<String, byte[]> data) {
    if (data.isEmpty()) {
      return null;
    }
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
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (uri.getHost() == null || uri.getUserInfo() != null) {
      throw invalid("the proxy secret's 'address' must be scheme://host:port without credentials");
    }
    Proxy.Type type =
        switch (scheme) {
          case "http", "https" -> Proxy.Type.HTTP;
          case "socks5" -> Proxy.Type.SOCKS;
          default -> throw invalid("the proxy secret's 'address' must use http, https or socks5");
        };
    String username = text(data, "username");
    String password = text(data, "password");
    if ((username == null) != (password == null)) {
      throw invalid(
          "the proxy secret has a "
              + (username == null ? "password" : "username")
              + " but no "
              + (username == null ? "username" : "password"));
    }
    if (username != null && !scheme.equals("http")) {
      // The JDK's HTTP connections speak only plain HTTP to a proxy, and only HTTP proxies take
      // credentials from them: the credentials would otherwise travel unencrypted or be ignored.
      throw invalid(
          "the proxy secret has a username and password, but its 'address' is "
              + scheme
              + "://: proxy credentials are supported for http:// proxy addresses only");
    }
    int port =
        uri.getPort() > 0
            ? uri.getPort()
            : scheme.equals("https") ? 443 : scheme.equals("socks5") ? 1080 : 80;
    return new ProxySettings(
        new Proxy(type, InetSocketAddress.createUnresolved(uri.getHost(), port)),
        uri.getHost(),
        port,
        scheme + "://" + uri.getHost() + ":" + port,
        username,
        password);
  }

  boolean hasCredentials() {
    return username != null;
  }

  @Override
  public String toString() {
    return "ProxySettings[" + display + (hasCredentials() ? ", with credentials" : "") + "]";
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
