package dev.capstan.engine.ops.events;

import dev.capstan.source.core.Redaction;
import java.util.regex.Pattern;

/**
 * Makes a message safe to store in an Event: user information is removed from URLs (a Git URL such
 * as {@code https://user:token@host/repo} is the likeliest way a secret reaches a message), bearer
 * tokens are masked, and the text is cut to a size the API server accepts and a terminal can show.
 * Scrubbing comes first, so that the cut never leaves half of a secret behind.
 */
final class MessageSanitizer {
  static final int MAX_LENGTH = 1024;
  private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]+");

  private MessageSanitizer() {}

  static String sanitize(String message) {
    if (message == null || message.isBlank()) {
      return "";
    }
    String masked = BEARER.matcher(Redaction.scrubUrls(message)).replaceAll("$1***");
    if (masked.length() <= MAX_LENGTH) {
      return masked;
    }
    return masked.substring(0, MAX_LENGTH - 3) + "...";
  }
}
