package dev.capstan.source;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The proxy of {@code spec.proxySecretRef}: the Secret's {@code address} ({@code http://host:port}
 * or {@code socks5://host:port}) that HTTP(S) fetches go through.
 */
record ProxySettings(Proxy proxy, String display) {

  /** Null for an empty Secret reference (a direct connection). */
  static ProxySettings from(Map<String, byte[]> data) {
    if (data.isEmpty()) {
      return null;
    }
    byte[] raw = data.get("address");
    String address = raw == null ? "" : new String(raw, StandardCharsets.UTF_8).strip();
    if (address.isEmpty()) {
      throw invalid("the proxy secret has no 'address'");
    }
    if (data.containsKey("username") || data.containsKey("password")) {
      // The JDK HTTP client JGit uses authenticates to a proxy only through a process-wide
      // Authenticator, and never with Basic for https tunnels; refusing beats a silent 407.
      throw invalid("the proxy secret has a username or password: proxy authentication is not "
          + "supported, use a proxy that admits the engine without credentials");
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
    Proxy.Type type = switch (scheme) {
      case "http", "https" -> Proxy.Type.HTTP;
      case "socks5" -> Proxy.Type.SOCKS;
      default -> throw invalid("the proxy secret's 'address' must use http, https or socks5");
    };
    int port = uri.getPort() > 0 ? uri.getPort() : scheme.equals("https") ? 443
        : scheme.equals("socks5") ? 1080 : 80;
    return new ProxySettings(new Proxy(type, InetSocketAddress.createUnresolved(uri.getHost(), port)),
        scheme + "://" + uri.getHost() + ":" + port);
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_SECRET, message);
  }
}
