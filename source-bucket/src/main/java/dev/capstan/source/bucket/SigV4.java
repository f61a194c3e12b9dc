package dev.capstan.source.bucket;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 of a request without a body, as AWS documents it for S3: the canonical
 * request (method, URI-encoded path, sorted query, the signed headers {@code host}, {@code
 * x-amz-content-sha256} and {@code x-amz-date}, the payload's hash), the string to sign over its
 * hash and the credential scope, and the signing key derived from the secret key by date, region
 * and service. S3 paths are encoded once, not twice as other services' are.
 */
final class SigV4 {
  static final String EMPTY_PAYLOAD =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final String SIGNED_HEADERS = "host;x-amz-content-sha256;x-amz-date";

  private final String accessKey;
  private final byte[] secretKey;
  private final String region;

  SigV4(String accessKey, byte[] secretKey, String region) {
    this.accessKey = accessKey;
    this.secretKey = secretKey.clone();
    this.region = region;
  }

  /**
   * The headers to send: {@code x-amz-date}, {@code x-amz-content-sha256} and {@code
   * Authorization}.
   *
   * @param host as the client sends it: the host, and the port unless it is the scheme's default
   * @param path the request's path, already URI-encoded as it is sent
   * @param query the query's parameters, not encoded
   */
  Map<String, String> sign(
      String method, String host, String path, Map<String, String> query, Instant now) {
    String stamp = STAMP.format(now);
    String day = stamp.substring(0, 8);
    String canonical =
        String.join(
            "\n",
            method,
            path,
            canonicalQuery(query),
            "host:" + host + "\nx-amz-content-sha256:" + EMPTY_PAYLOAD + "\nx-amz-date:" + stamp,
            "",
            SIGNED_HEADERS,
            EMPTY_PAYLOAD);
    String scope = day + "/" + region + "/s3/aws4_request";
    String toSign = "AWS4-HMAC-SHA256\n" + stamp + "\n" + scope + "\n" + sha256Hex(canonical);
    byte[] key =
        hmac(
            ("AWS4" + new String(secretKey, StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8),
            day);
    key = hmac(hmac(hmac(key, region), "s3"), "aws4_request");
    String signature = HexFormat.of().formatHex(hmac(key, toSign));
    return Map.of(
        "x-amz-date",
        stamp,
        "x-amz-content-sha256",
        EMPTY_PAYLOAD,
        "Authorization",
        "AWS4-HMAC-SHA256 Credential="
            + accessKey
            + "/"
            + scope
            + ", SignedHeaders="
            + SIGNED_HEADERS
            + ", Signature="
            + signature);
  }

  /** Parameters sorted by name, names and values encoded as {@link #encode} does. */
  static String canonicalQuery(Map<String, String> query) {
    SortedMap<String, String> sorted = new TreeMap<>();
    query.forEach((name, value) -> sorted.put(encode(name, true), encode(value, true)));
    StringBuilder out = new StringBuilder();
    sorted.forEach(
        (name, value) -> out.append(out.length() == 0 ? "" : "&").append(name + "=" + value));
    return out.toString();
  }

  /**
   * AWS's URI encoding: every byte but the unreserved characters ({@code A-Z a-z 0-9 - _ . ~}) as
   * {@code %XX} in upper case, and {@code /} too unless it separates a path's segments.
   */
  static String encode(String text, boolean slash) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~'
          || (c == '/' && !slash)) {
        out.append(c);
      } else {
        out.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return out.toString();
  }

  private static String sha256Hex(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required of every Java runtime", e);
    }
  }

  @Override
  public String toString() {
    return "SigV4[region=" + region + "]"; // never the keys
  }
}
