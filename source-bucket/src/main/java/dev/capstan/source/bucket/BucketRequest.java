package dev.capstan.source.bucket;

import dev.capstan.source.core.FetchTarget;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.Map;

/**
 * One fetch of a Bucket of provider {@code generic} (an S3-compatible server).
 *
 * @param target the artifact store's key of the Bucket (e.g. {@code bucket/ns/name}), its {@code
 *     spec.endpoint} ({@code host[:port]}, or with an {@code http://} or {@code https://} scheme),
 *     {@code spec.ignore}, the timeout (60 seconds when null) and the proxy Secret's data
 * @param bucketName {@code spec.bucketName}
 * @param region {@code spec.region}; {@code us-east-1} when empty, as S3-compatible servers expect
 * @param prefix {@code spec.prefix}: only keys starting with it are listed; empty for all
 * @param credentials the data of {@code secretRef}: {@code accesskey} and {@code secretkey}; empty
 *     for anonymous requests
 * @param certSecret {@code ca.crt}, {@code tls.crt}, {@code tls.key} of {@code certSecretRef}
 * @param insecure plain http to the endpoint
 */
@RecordBuilder
public record BucketRequest(
    FetchTarget target,
    String bucketName,
    String region,
    String prefix,
    Map<String, byte[]> credentials,
    Map<String, byte[]> certSecret,
    boolean insecure)
    implements BucketRequestBuilder.With {

  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  static final String DEFAULT_REGION = "us-east-1";

  public BucketRequest {
    target = target.timeout() == null ? target.withTimeout(DEFAULT_TIMEOUT) : target;
    region = region == null || region.isBlank() ? DEFAULT_REGION : region;
    prefix = prefix == null ? "" : prefix;
    credentials = credentials == null ? Map.of() : Map.copyOf(credentials);
    certSecret = certSecret == null ? Map.of() : Map.copyOf(certSecret);
  }

  public static BucketRequest of(String key, String endpoint, String bucketName) {
    return new BucketRequest(
        FetchTarget.of(key, endpoint), bucketName, null, null, null, null, false);
  }

  public BucketRequest withTimeout(Duration limit) {
    return withTarget(target.withTimeout(limit));
  }

  public BucketRequest withIgnore(String ignore) {
    return withTarget(target.withIgnore(ignore));
  }

  public BucketRequest withProxy(Map<String, byte[]> proxy) {
    return withTarget(target.withProxy(proxy));
  }

  @Override
  public String toString() {
    // Never print secret values.
    return target
        + ", bucket="
        + bucketName
        + ", region="
        + region
        + ", prefix="
        + prefix
        + ", credentialKeys="
        + credentials.keySet()
        + ", certKeys="
        + certSecret.keySet()
        + ", insecure="
        + insecure;
  }
}
