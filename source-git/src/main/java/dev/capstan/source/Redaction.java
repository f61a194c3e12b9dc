package dev.capstan.source;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.regex.Pattern;

/** Removes credentials from text that may reach a log, a status or a terminal. */
final class Redaction {

  private static final Pattern URL_USERINFO =
      Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\\s]+@");

  private Redaction() {}

  /** {@code https://user:pw@host/x} becomes {@code https://host/x}; scp-like forms are kept. */
  static String scrubUrl(String text) {
    return text == null ? null : URL_USERINFO.matcher(text).replaceAll("$1");
  }

  /** Scrubs URLs and every occurrence of any of the secret values (of 4+ characters). */
  static String scrub(String text, Collection<byte[]> secretValues) {
    String out = scrubUrl(text);
    if (out == null) {
      return null;
    }
    for (byte[] value : secretValues) {
      String s = new String(value, StandardCharsets.UTF_8).trim();
      if (s.length() >= 4 && out.contains(s)) {
        out = out.replace(s, "***");
      }
    }
    return out;
  }
}
