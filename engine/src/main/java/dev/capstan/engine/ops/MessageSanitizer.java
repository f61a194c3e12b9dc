package dev.capstan.engine.ops;

import java.util.regex.Pattern;

/**
 * Makes a message safe to store in an Event: credentials embedded in URLs are masked (a Git URL
 * such as {@code https://user:token@host/repo} is the likeliest way a secret reaches a message)
 * and the text is cut to a size the API server accepts and a terminal can show.
 */
final class MessageSanitizer {
  static final int MAX_LENGTH = 1024;
  private static final Pattern URL_USERINFO = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\\s]+@");
  private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]+");

  private MessageSanitizer() {}

  static String sanitize(String message) {
    if (message == null || message.isBlank()) {
      return "";
    }
    String masked = URL_USERINFO.matcher(message).replaceAll("$1***@");
    masked = BEARER.matcher(masked).replaceAll("$1***");
    if (masked.length() <= MAX_LENGTH) {
      return masked;
    }
    return masked.substring(0, MAX_LENGTH - 3) + "...";
  }
}
