package dev.capstan.engine.ops.server;

import java.net.InetSocketAddress;

/**
 * An address to listen on, written as on the command line: {@code :8080} (all interfaces), {@code
 * 127.0.0.1:8080}, {@code [::1]:8080}, or {@code 0} as the port for any free one.
 */
public record ListenAddress(String host, int port) {

  public static ListenAddress parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("listen address is empty; expected host:port or :port");
    }
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException(
          "listen address '" + text + "' has no port; expected host:port or :port");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "listen address '" + text + "' has a port that is not a number");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          "listen address '" + text + "' has a port outside 0-65535");
    }
    return new ListenAddress(host, port);
  }

  /** The socket address to bind: the wildcard address when no host was given. */
  public InetSocketAddress socketAddress() {
    return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
