package dev.capstan.source.oci;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * An http(s) URL parsed and normalised for comparison: lower-case scheme and host (without a
 * trailing dot or an IPv6 address's brackets), the port written out, the path without dot segments
 * ({@code /} when empty), the query as written. A URL whose path hides a dot segment, a slash or a
 * backslash in an escape is refused: a server may decode it into a path outside the one compared.
 */
record ArtifactUrl(String scheme, String host, int port, String path, String query) {

  private static final Pattern DOTTED_QUAD =
      Pattern.compile(
          "((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
              + "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");

  private static final Pattern HIDDEN =
      Pattern.compile("%(2e|2f|5c)|\\\\", Pattern.CASE_INSENSITIVE);

  /**
   * @throws SourceException {@link FailureReason#INVALID_URL} when {@code text} is not an http(s)
   *     URL with a host and without user information
   */
  static ArtifactUrl parse(String text) {
    URI uri;
    try {
      uri = new URI(text == null ? "" : text);
    } catch (URISyntaxException e) {
      throw invalid();
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawAuthority().contains("@")) {
      throw invalid();
    }
    String rawPath = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (HIDDEN.matcher(rawPath).find()) {
      throw invalid();
    }
    String path = uri.normalize().getRawPath();
    if (path == null || path.isEmpty()) {
      path = "/";
    }
    if (!path.startsWith("/") || path.startsWith("/..")) {
      throw invalid();
    }
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.endsWith(".")) {
      host = host.substring(0, host.length() - 1);
    }
    if (numericButNotDottedQuad(host)) {
      throw invalid();
    }
    int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
    return new ArtifactUrl(scheme, host, port, path, uri.getRawQuery());
  }

  /**
   * Whether the host is a number in a form other than four decimal octets ({@code 2130706433},
   * {@code 0x7f.1}, {@code 127.1}, {@code 0177.0.0.1}): resolvers read those as addresses, each its
   * own way, and no host name ends in a number.
   */
  private static boolean numericButNotDottedQuad(String host) {
    if (host.contains(":")) {
      return false; // IPv6, which has one reading
    }
    String last = host.substring(host.lastIndexOf('.') + 1);
    boolean numeric =
        last.matches("[0-9]+") || host.matches("((0x[0-9a-f]*|[0-9]+)\\.)*(0x[0-9a-f]*|[0-9]+)");
    return numeric && !DOTTED_QUAD.matcher(host).matches();
  }

  /** Whether {@code url} is under this prefix: same origin, and its path within this path. */
  boolean admits(ArtifactUrl url) {
    if (!scheme.equals(url.scheme) || !host.equals(url.host) || port != url.port) {
      return false;
    }
    return path.endsWith("/")
        ? url.path.startsWith(path)
        : url.path.equals(path) || url.path.startsWith(path + "/");
  }

  /** The URL to request (the fragment, never sent, left out). */
  URI uri() {
    String authority = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    return URI.create(scheme + "://" + authority + path + (query == null ? "" : "?" + query));
  }

  /** The URL without its query, which may carry a token: what a log may show. */
  String withoutQuery() {
    return scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + path;
  }

  @Override
  public String toString() {
    return withoutQuery();
  }

  private static SourceException invalid() {
    return new SourceException(
        FailureReason.INVALID_URL,
        "the artifact's URL must be http(s)://host[:port]/path, without credentials");
  }
}
