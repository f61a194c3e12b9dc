package dev.capstan.ui;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The view's own authentication, so that another user or process of the machine cannot use it: a
 * random token made at each start and printed once, in the address to open. The first request that
 * carries it gets a cookie (HttpOnly, SameSite=Strict) and is sent on to the same address without
 * the token, which so stays out of the address bar and the history; every other request needs that
 * cookie, or the token again.
 */
final class AccessGate {
  /** The query parameter of the printed address. */
  static final String PARAMETER = "token";

  /** Bytes of the token: 256 bits. */
  static final int TOKEN_BYTES = 32;

  private static final String COOKIE_PREFIX = "capstan-ui-access-";

  /** What a request without the cookie or the token is told. */
  static final String REFUSAL =
      "this browser is not let in: open the address that capstan ui printed when it started"
          + " (http://…/?token=…); a view started again has a new one";

  /** The same, as the page a browser shows. */
  static final String REFUSAL_PAGE =
      """
      <!DOCTYPE html>
      <html lang="en">
      <head><meta charset="utf-8"><title>Capstan: open the printed address</title></head>
      <body>
      <h1>Open the address that capstan ui printed</h1>
      <p id="access-refused">This view needs the address that capstan ui printed when it started
      (<code>http://…/?token=…</code>): open that address in this browser. A view started again
      prints a new one.</p>
      </body>
      </html>
      """;

  private final String token;
  private final byte[] tokenDigest;

  AccessGate(SecureRandom random) {
    byte[] bytes = new byte[TOKEN_BYTES];
    random.nextBytes(bytes);
    this.token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    this.tokenDigest = sha256(token);
  }

  /** What one request may do. */
  sealed interface Decision {}

  /** Let in: a valid cookie, or the token on a request that is not a page to redirect. */
  record Granted() implements Decision {}

  /**
   * The token was right: set the cookie and send the browser on to {@code location}, the same path
   * and query without the token.
   */
  record Enter(String location) implements Decision {}

  /** Neither a valid cookie nor the token. */
  record Refused() implements Decision {}

  /** The page that sends a browser on to {@code location} once the cookie is set. */
  static String enterPage(String location) {
    String href = Html.escape(location);
    return """
    <!DOCTYPE html>
    <html lang="en">
    <head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=%s">
    <title>Capstan</title></head>
    <body><p><a href="%s">Go on to the view</a></p></body>
    </html>
    """
        .formatted(href, href);
  }

  /** The token, for the address printed at the start; never for a log or a message. */
  String token() {
    return token;
  }

  /**
   * The cookie's name holds the port: a browser sends the cookies of a host to all its ports, so
   * two views on one machine would otherwise overwrite each other's.
   */
  static String cookieName(int port) {
    return COOKIE_PREFIX + port;
  }

  /**
   * @param rawQuery the request's query as sent (may be null)
   * @param cookie the value of this view's cookie, if the request has one
   * @param redirectable whether the answer may be a redirect (a GET)
   */
  Decision decide(String path, String rawQuery, String cookie, boolean redirectable) {
    List<String> kept = new ArrayList<>();
    List<String> presented = new ArrayList<>();
    if (rawQuery != null && !rawQuery.isEmpty()) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        String name = decode(eq < 0 ? pair : pair.substring(0, eq));
        if (PARAMETER.equals(name)) {
          presented.add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
        } else if (pair.matches("[A-Za-z0-9._~%=+,*-]+")) {
          kept.add(pair); // as sent: it goes into the Location header, so nothing else is kept
        }
      }
    }
    if (!presented.isEmpty()) {
      // A wrong token is refused even with a good cookie: it is someone guessing.
      if (!presented.stream().allMatch(this::matches)) {
        return new Refused();
      }
      return redirectable
          ? new Enter(local(path) + (kept.isEmpty() ? "" : "?" + String.join("&", kept)))
          : new Granted();
    }
    return cookie != null && matches(cookie) ? new Granted() : new Refused();
  }

  /** The cookie's value once the token was presented. */
  String cookieValue() {
    return token;
  }

  /** In constant time: the digests of equal length are compared, whatever was sent. */
  boolean matches(String candidate) {
    return candidate != null && MessageDigest.isEqual(tokenDigest, sha256(candidate));
  }

  @Override
  public String toString() {
    return "AccessGate[token hidden]";
  }

  /** A path of this server: never "//host/...", which a browser would take for another host. */
  private static String local(String path) {
    return path != null && !path.startsWith("//") && path.matches("/[A-Za-z0-9._~%/-]*")
        ? path
        : "/";
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text; // a malformed escape is compared as sent, and so does not match
    }
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
