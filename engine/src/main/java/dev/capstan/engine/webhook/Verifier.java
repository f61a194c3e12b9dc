package dev.capstan.engine.webhook;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;

/**
 * Proves that a request comes from the holder of the receiver's secret, per receiver type. Pure:
 * headers, body and secret in, a {@link Verdict} out.
 */
final class Verifier {
  static final String GITHUB_SIGNATURE = "X-Hub-Signature-256";
  static final String GITHUB_EVENT = "X-GitHub-Event";
  static final String GITLAB_TOKEN = "X-Gitlab-Token";
  static final String GITLAB_EVENT = "X-Gitlab-Event";
  static final String GENERIC_SIGNATURE = "X-Signature";

  private Verifier() {}

  static Verdict verify(
      ReceiverType type, List<String> events, HttpFields headers, byte[] body, byte[] secret) {
    return switch (type) {
      case GITHUB -> github(events, headers, body, secret);
      case GITLAB -> gitlab(events, headers, secret);
      case GENERIC -> generic(headers, body, secret);
    };
  }

  private static Verdict github(
      List<String> events, HttpFields headers, byte[] body, byte[] secret) {
    String signature = headers.get(GITHUB_SIGNATURE);
    if (signature == null) {
      return Verdict.Reject.unsigned(GITHUB_SIGNATURE);
    }
    Optional<Verdict> bad =
        checkHmac(GITHUB_SIGNATURE, signature, "HmacSHA256", "sha256=", 32, body, secret);
    if (bad.isPresent()) {
      return bad.get();
    }
    String event = headers.get(GITHUB_EVENT);
    return event != null && events.contains(event)
        ? new Verdict.Act(event)
        : new Verdict.Ignore(event);
  }

  private static Verdict gitlab(List<String> events, HttpFields headers, byte[] secret) {
    String token = headers.get(GITLAB_TOKEN);
    if (token == null) {
      return Verdict.Reject.unsigned(GITLAB_TOKEN);
    }
    if (!Signatures.constantTimeTokenEquals(token.getBytes(StandardCharsets.UTF_8), secret)) {
      return Verdict.Reject.mismatch(GITLAB_TOKEN);
    }
    String event = headers.get(GITLAB_EVENT);
    return event != null && events.contains(event)
        ? new Verdict.Act(event)
        : new Verdict.Ignore(event);
  }

  private static Verdict generic(HttpFields headers, byte[] body, byte[] secret) {
    String signature = headers.get(GENERIC_SIGNATURE);
    if (signature == null) {
      return Verdict.Reject.unsigned(GENERIC_SIGNATURE);
    }
    String lower = signature.toLowerCase(Locale.ROOT);
    Optional<Verdict> bad;
    if (lower.startsWith("sha256=")) {
      bad = checkHmac(GENERIC_SIGNATURE, signature, "HmacSHA256", "sha256=", 32, body, secret);
    } else if (lower.startsWith("sha512=")) {
      bad = checkHmac(GENERIC_SIGNATURE, signature, "HmacSHA512", "sha512=", 64, body, secret);
    } else {
      return Verdict.Reject.malformed(GENERIC_SIGNATURE, "sha256=<hex> or sha512=<hex>");
    }
    return bad.orElse(new Verdict.Act("generic"));
  }

  /** Empty when the signature is right; else the rejection. */
  private static Optional<Verdict> checkHmac(
      String header,
      String value,
      String algorithm,
      String prefix,
      int length,
      byte[] body,
      byte[] secret) {
    if (!value.regionMatches(true, 0, prefix, 0, prefix.length())) {
      return Optional.of(Verdict.Reject.malformed(header, prefix + "<hex>"));
    }
    Optional<byte[]> given = Signatures.hex(value.substring(prefix.length()), length);
    if (given.isEmpty()) {
      return Optional.of(
          Verdict.Reject.malformed(header, prefix + "<" + length * 2 + " hex digits>"));
    }
    byte[] expected = Signatures.hmac(algorithm, secret, body);
    return Signatures.constantTimeEquals(expected, given.get())
        ? Optional.empty()
        : Optional.of(Verdict.Reject.mismatch(header));
  }
}
