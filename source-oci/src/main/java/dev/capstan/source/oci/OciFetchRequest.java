package dev.capstan.source.oci;

import dev.capstan.source.core.FetchTarget;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One pull of an OCIRepository.
 *
 * @param target the artifact store's key of the source (e.g. {@code ocirepository/ns/name}), the
 *     {@code oci://host/name} URL, {@code spec.ignore} (Flux's default exclusions when null), the
 *     timeout (60 seconds when null) and the proxy Secret's data ({@code address}, {@code
 *     username}, {@code password})
 * @param layerMediaType the media type of the layer to use; the first layer when null
 * @param copyLayer store the layer's tar+gzip file as it is instead of unpacking it
 * @param insecure plain http allowed (and, without a cert secret, any https certificate)
 * @param pullSecrets Docker config Secrets' data, in order: secretRef, then the service account's
 *     image pull secrets
 * @param certSecret {@code ca.crt}, {@code tls.crt}, {@code tls.key}; empty when none
 * @param verification the cosign keys the artifact must be signed with; empty when not verified
 *     with keys
 * @param keyless the keyless (Sigstore) signature the artifact must carry; empty when not verified
 *     keyless. With both, the keys decide, as Flux decides when {@code secretRef} is given.
 */
@RecordBuilder
public record OciFetchRequest(
    FetchTarget target,
    OciRef ref,
    String layerMediaType,
    boolean copyLayer,
    boolean insecure,
    List<Map<String, byte[]>> pullSecrets,
    Map<String, byte[]> certSecret,
    Optional<Map<String, byte[]>> verification,
    Optional<KeylessPolicy> keyless)
    implements OciFetchRequestBuilder.With {

  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  public OciFetchRequest {
    target = target.timeout() == null ? target.withTimeout(DEFAULT_TIMEOUT) : target;
    ref = ref == null ? OciRef.latest() : ref;
    pullSecrets = pullSecrets == null ? List.of() : List.copyOf(pullSecrets);
    certSecret = certSecret == null ? Map.of() : Map.copyOf(certSecret);
    verification = verification == null ? Optional.empty() : verification;
    keyless = keyless == null ? Optional.empty() : keyless;
  }

  public static OciFetchRequest of(String key, String url, OciRef ref) {
    return new OciFetchRequest(
        FetchTarget.of(key, url), ref, null, false, false, null, null, null, null);
  }

  public OciFetchRequest withLayer(String mediaType, boolean copy) {
    return withLayerMediaType(mediaType).withCopyLayer(copy);
  }

  public OciFetchRequest withIgnore(String rules) {
    return withTarget(target.withIgnore(rules));
  }

  public OciFetchRequest withTimeout(Duration limit) {
    return withTarget(target.withTimeout(limit));
  }

  public OciFetchRequest withProxy(Map<String, byte[]> secret) {
    return withTarget(target.withProxy(secret));
  }

  public OciFetchRequest withVerification(Map<String, byte[]> keys) {
    return withVerification(Optional.of(keys));
  }

  public OciFetchRequest withKeyless(KeylessPolicy policy) {
    return withKeyless(Optional.of(policy));
  }
}
