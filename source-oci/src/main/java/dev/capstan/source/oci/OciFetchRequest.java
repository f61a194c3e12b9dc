package dev.capstan.source.oci;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One pull of an OCIRepository.
 *
 * @param key the artifact store's key of the source, e.g. {@code ocirepository/ns/name}
 * @param url {@code oci://host/name}
 * @param layerMediaType the media type of the layer to use; the first layer when null
 * @param copyLayer store the layer's tar+gzip file as it is instead of unpacking it
 * @param ignore {@code spec.ignore}; Flux's default exclusions when null
 * @param insecure plain http allowed (and, without a cert secret, any https certificate)
 * @param pullSecrets Docker config Secrets' data, in order: secretRef, then the service account's
 *     image pull secrets
 * @param certSecret {@code ca.crt}, {@code tls.crt}, {@code tls.key}; empty when none
 * @param proxySecret {@code address}, {@code username}, {@code password}; empty when none
 * @param verification the cosign keys the artifact must be signed with; empty when not verified
 */
public record OciFetchRequest(
    String key,
    String url,
    OciRef ref,
    String layerMediaType,
    boolean copyLayer,
    String ignore,
    Duration timeout,
    boolean insecure,
    List<Map<String, byte[]>> pullSecrets,
    Map<String, byte[]> certSecret,
    Map<String, byte[]> proxySecret,
    Optional<Map<String, byte[]>> verification) {

  public OciFetchRequest {
    ref = ref == null ? OciRef.latest() : ref;
    timeout = timeout == null ? Duration.ofSeconds(60) : timeout;
    pullSecrets = pullSecrets == null ? List.of() : List.copyOf(pullSecrets);
    certSecret = certSecret == null ? Map.of() : Map.copyOf(certSecret);
    proxySecret = proxySecret == null ? Map.of() : Map.copyOf(proxySecret);
    verification = verification == null ? Optional.empty() : verification;
  }

  public static OciFetchRequest of(String key, String url, OciRef ref) {
    return new OciFetchRequest(
        key, url, ref, null, false, null, null, false, null, null, null, null);
  }

  public OciFetchRequest withLayer(String mediaType, boolean copy) {
    return new OciFetchRequest(
        key,
        url,
        ref,
        mediaType,
        copy,
        ignore,
        timeout,
        insecure,
        pullSecrets,
        certSecret,
        proxySecret,
        verification);
  }

  public OciFetchRequest withIgnore(String rules) {
    return new OciFetchRequest(
        key,
        url,
        ref,
        layerMediaType,
        copyLayer,
        rules,
        timeout,
        insecure,
        pullSecrets,
        certSecret,
        proxySecret,
        verification);
  }

  public OciFetchRequest withTimeout(Duration limit) {
    return new OciFetchRequest(
        key,
        url,
        ref,
        layerMediaType,
        copyLayer,
        ignore,
        limit,
        insecure,
        pullSecrets,
        certSecret,
        proxySecret,
        verification);
  }

  public OciFetchRequest withInsecure(boolean allowed) {
    return new OciFetchRequest(
        key,
        url,
        ref,
        layerMediaType,
        copyLayer,
        ignore,
        timeout,
        allowed,
        pullSecrets,
        certSecret,
        proxySecret,
        verification);
  }

  public OciFetchRequest withPullSecrets(List<Map<String, byte[]>> secrets) {
    return new OciFetchRequest(
        key,
        url,
        ref,
        layerMediaType,
        copyLayer,
        ignore,
        timeout,
        insecure,
        secrets,
        certSecret,
        proxySecret,
        verification);
  }

  public OciFetchRequest withCertSecret(Map<String, byte[]> secret) {
    return new OciFetchRequest(
        key,
        url,
        ref,
        layerMediaType,
        copyLayer,
        ignore,
        timeout,
        insecure,
        pullSecrets,
        secret,
        proxySecret,
        verification);
  }

  public OciFetchRequest withProxy(Map<String, byte[]> secret) {
    return new OciFetchRequest(
        key,
        url,
        ref,
        layerMediaType,
        copyLayer,
        ignore,
        timeout,
        insecure,
        pullSecrets,
        certSecret,
        secret,
        verification);
  }

  public OciFetchRequest withVerification(Map<String, byte[]> keys) {
    return new OciFetchRequest(
        key,
        url,
        ref,
        layerMediaType,
        copyLayer,
        ignore,
        timeout,
        insecure,
        pullSecrets,
        certSecret,
        proxySecret,
        Optional.of(keys));
  }
}
