package dev.capstan.source.git.transport;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The credentials in a Secret's data, under the keys GitRepository Secrets use: {@code
 * username}/{@code password} and {@code bearerToken} for HTTP(S); {@code identity} (a private key),
 * {@code identity.pub}, {@code known_hosts} and optional {@code password} or {@code passphrase}
 * (the key's passphrase) for SSH. The HTTPS client certificate and authorities of the same Secret
 * are read by {@link TlsSettings}.
 */
record Credentials(
    String username,
    String password,
    String bearerToken,
    byte[] identity,
    String knownHosts,
    String passphrase) {

  static Credentials from(Map<String, byte[]> data) {
    String passphrase = text(data, "passphrase");
    return new Credentials(
        text(data, "username"),
        text(data, "password"),
        text(data, "bearerToken"),
        data.get("identity"),
        text(data, "known_hosts"),
        passphrase != null ? passphrase : text(data, "password"));
  }

  boolean hasBasicAuth() {
    return username != null && password != null;
  }

  @Override
  public String toString() {
    return "Credentials[redacted]";
  }

  private static String text(Map<String, byte[]> data, String key) {
    byte[] value = data.get(key);
    if (value == null) {
      return null;
    }
    String s = new String(value, StandardCharsets.UTF_8);
    // Secrets made with `echo` often end in a newline that is not part of the value.
    String trimmed = "known_hosts".equals(key) ? s : s.strip();
    return trimmed.isEmpty() ? null : trimmed;
  }
}
