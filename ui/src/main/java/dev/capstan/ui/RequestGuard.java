package dev.capstan.ui;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Protects the view against other web pages the user has open (the start token of {@link
 * AccessGate} keeps other users out). A page the browser loads from this server gets a session
 * cookie (SameSite=Strict, HttpOnly) and, in the page, a token derived from it with a key only this
 * process knows; an action must carry both, and come from this server's own origin. Every request
 * must name an allowed host in its Host header ({@link HostAllowList}): a DNS name rebound to this
 * address by some web site gets nothing.
 */
final class RequestGuard {
  static final String COOKIE = "capstan-ui-session";
  static final String TOKEN_HEADER = "X-Capstan-Token";

  private final byte[] key;
  private final SecureRandom random;
  private final HostAllowList hosts;

  RequestGuard(SecureRandom random, HostAllowList hosts) {
    this.random = random;
    this.key = new byte[32];
    random.nextBytes(key);
    this.hosts = hosts;
  }

  /** A fresh session id for a cookie. */
  String newSession() {
    byte[] id = new byte[24];
    random.nextBytes(id);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(id);
  }

  /** The token a page of this session sends back with its actions. */
  String token(String session) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(mac.doFinal(session.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  /** Why a request with this Host header is refused, or empty when it may be served. */
  Optional<String> refuseHost(String host) {
    return hosts.refuse(host);
  }

  /** Why an action is refused, or empty when session, token and origin all match. */
  Optional<String> refuseAction(String host, String origin, String session, String token) {
    Optional<String> badHost = refuseHost(host);
    if (badHost.isPresent()) {
      return badHost;
    }
    if (origin == null || !sameOrigin(origin, host)) {
      return Optional.of(
          "the request does not come from this page (Origin "
              + (origin == null ? "missing" : origin)
              + ")");
    }
    if (session == null
        || session.isEmpty()
        || token == null
        || !MessageDigest.isEqual(
            token(session).getBytes(StandardCharsets.UTF_8),
            token.getBytes(StandardCharsets.UTF_8))) {
      return Optional.of("missing or wrong session token: reload the page");
    }
    return Optional.empty();
  }

  private static boolean sameOrigin(String origin, String host) {
    try {
      URI uri = URI.create(origin);
      String authority = uri.getRawAuthority();
      return "http".equals(uri.getScheme())
          && authority != null
          && authority.equalsIgnoreCase(host);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
