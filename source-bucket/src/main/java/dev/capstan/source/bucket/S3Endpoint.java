package dev.capstan.source.bucket;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a bucket is: {@code spec.endpoint} as Flux reads it for an S3-compatible server ({@code
 * host[:port]}; https unless {@code insecure}), with its scheme accepted when it agrees with {@code
 * insecure}. Buckets are addressed by path ({@code <endpoint>/<bucket>/<key>}), which every
 * S3-compatible server serves, whatever its DNS.
 *
 * @param scheme http or https
 * @param host the host as the client sends it, with the port unless it is the scheme's default
 */
record S3Endpoint(String scheme, String host) {
  /** A bucket name as S3 allows it (3 to 63 of lower-case letters, digits, dots and hyphens). */
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  static S3Endpoint parse(String endpoint, boolean insecure) {
    String text = endpoint == null ? "" : endpoint.strip();
    String lower = text.toLowerCase(Locale.ROOT);
    String scheme = insecure ? "http" : "https";
    if (lower.startsWith("http://") || lower.startsWith("https://")) {
      String given = lower.substring(0, lower.indexOf(':'));
      if (given.equals("http") && !insecure) {
        throw invalid("the endpoint is http:// but spec.insecure is not true");
      }
      scheme = given;
      text = text.substring(given.length() + 3);
    }
    if (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    if (text.isEmpty() || text.contains("/") || text.contains("@") || text.contains("?")) {
      throw invalid("the endpoint must be host[:port], without a path or user information");
    }
    URI uri;
    try {
      uri = new URI(scheme + "://" + text + "/");
    } catch (URISyntaxException e) {
      throw invalid("the endpoint is not host[:port]");
    }
    if (uri.getHost() == null) {
      throw invalid("the endpoint is not host[:port]");
    }
    int port = uri.getPort();
    boolean defaultPort = port == -1 || port == (scheme.equals("https") ? 443 : 80);
    return new S3Endpoint(scheme, defaultPort ? uri.getHost() : uri.getHost() + ":" + port);
  }

  /** Checks {@code spec.bucketName} before it goes into a path. */
  static void checkBucketName(String name) {
    if (name == null || !BUCKET.matcher(name).matches() || name.contains("..")) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.bucketName must be 3 to 63 lower-case letters, digits, dots and hyphens");
    }
  }

  /** The path of the bucket, or of one of its objects: {@code /<bucket>[/<encoded key>]}. */
  static String path(String bucket, String key) {
    return "/" + bucket + (key == null ? "" : "/" + SigV4.encode(key, false));
  }

  URI uri(String path, String query) {
    return URI.create(scheme + "://" + host + path + (query.isEmpty() ? "" : "?" + query));
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_URL, message);
  }
}
