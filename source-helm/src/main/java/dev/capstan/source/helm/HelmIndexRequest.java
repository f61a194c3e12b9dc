package dev.capstan.source.helm;

import dev.capstan.source.core.FetchTarget;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.Map;

/**
 * One download of a HelmRepository's index.
 *
 * @param target the artifact store's key of the repository (e.g. {@code helmrepository/ns/name}),
 *     its http(s) URL (the index is {@code <url>/index.yaml}) and the timeout (60 seconds when
 *     null); the target's ignore rules and proxy are not used
 * @param credentials the data of {@code secretRef}: {@code username} and {@code password} for basic
 *     authentication; empty when none
 * @param certSecret {@code ca.crt}, {@code tls.crt}, {@code tls.key} (of {@code certSecretRef},
 *     else of {@code secretRef}, as Flux still reads them there); empty when none
 * @param passCredentials send the credentials to other hosts than the repository's as well
 * @param insecure send the credentials over plain http too
 */
@RecordBuilder
public record HelmIndexRequest(
    FetchTarget target,
    Map<String, byte[]> credentials,
    Map<String, byte[]> certSecret,
    boolean passCredentials,
    boolean insecure)
    implements HelmIndexRequestBuilder.With {

  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  public HelmIndexRequest {
    target = target.timeout() == null ? target.withTimeout(DEFAULT_TIMEOUT) : target;
    credentials = credentials == null ? Map.of() : Map.copyOf(credentials);
    certSecret = certSecret == null ? Map.of() : Map.copyOf(certSecret);
  }

  public static HelmIndexRequest of(String key, String url) {
    return new HelmIndexRequest(FetchTarget.of(key, url), null, null, false, false);
  }

  public HelmIndexRequest withTimeout(Duration limit) {
    return withTarget(target.withTimeout(limit));
  }

  @Override
  public String toString() {
    // Never print secret values.
    return target
        + ", credentialKeys="
        + credentials.keySet()
        + ", certKeys="
        + certSecret.keySet()
        + ", passCredentials="
        + passCredentials
        + ", insecure="
        + insecure;
  }
}
