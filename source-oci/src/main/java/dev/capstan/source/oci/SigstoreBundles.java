package dev.capstan.source.oci;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * The Sigstore bundles attached to a manifest as cosign v3 attaches them by default: each an OCI
 * 1.1 artifact whose {@code subject} is the manifest and whose {@code artifactType} is a bundle
 * media type, listed by the registry's referrers API ({@code GET /v2/<name>/referrers/<digest>})
 * or, where the registry has none, by the index cosign tags {@code sha256-<hex>} (the referrers tag
 * schema of the distribution specification). The bundle is the artifact's one layer.
 */
final class SigstoreBundles {
  static final String BUNDLE_TYPE_PREFIX = "application/vnd.dev.sigstore.bundle";
  static final String INDEX = "application/vnd.oci.image.index.v1+json";

  /** At most this many bundles are read, each at most this large: a bundle is a few KiB. */
  static final int MAX_BUNDLES = 16;

  static final int MAX_BUNDLE_BYTES = 1 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private SigstoreBundles() {}

  /** The bundles' JSON, in the order the registry lists them; empty when none is attached. */
  static List<byte[]> of(Registry registry, String digest) {
    List<byte[]> bundles = new ArrayList<>();
    for (String manifest : referrers(registry, digest)) {
      Manifest artifact = registry.manifest(manifest);
      for (Descriptor layer : artifact.layers()) {
        // counted per layer: one manifest of many bundle layers must not be read whole
        if (bundles.size() >= MAX_BUNDLES) {
          return bundles;
        }
        if (layer.mediaType().startsWith(BUNDLE_TYPE_PREFIX)) {
          bundles.add(
              registry.smallBlob(layer, MAX_BUNDLE_BYTES, FailureReason.VERIFICATION_FAILED));
        }
      }
      if (bundles.size() >= MAX_BUNDLES) {
        break;
      }
    }
    return bundles;
  }

  /** The digests of the bundle artifacts that refer to {@code digest}. */
  private static List<String> referrers(Registry registry, String digest) {
    RegistryClient client = registry.client();
    // A registry without the referrers API answers 404 (or another error) there: the tag then.
    JsonNode index = index(client, "referrers/" + digest, true);
    if (index == null) {
      index = index(client, "manifests/sha256-" + digest.substring("sha256:".length()), false);
    }
    List<String> found = new ArrayList<>();
    if (index == null) {
      return found;
    }
    for (JsonNode entry : index.path("manifests")) {
      String type = entry.path("artifactType").asText("");
      String referrer = entry.path("digest").asText("");
      if (type.startsWith(BUNDLE_TYPE_PREFIX) && OciUrl.DIGEST.matcher(referrer).matches()) {
        found.add(referrer);
      }
      if (found.size() >= MAX_BUNDLES) {
        break;
      }
    }
    return found;
  }

  /**
   * The index at {@code path}, null when the registry has none there (404, any error when {@code
   * optional}, or a document that is no index).
   */
  private static JsonNode index(RegistryClient client, String path, boolean optional) {
    HttpResponse<InputStream> response =
        client.send(client.request(client.uri(path)).header("Accept", INDEX).GET());
    try (InputStream in = response.body()) {
      if (response.statusCode() == 404 || (optional && response.statusCode() != 200)) {
        return null;
      }
      if (response.statusCode() != 200) {
        throw new SourceException(
            FailureReason.VERIFICATION_FAILED,
            "the registry answered "
                + response.statusCode()
                + " when listing the signatures of "
                + client.url().display());
      }
      JsonNode root =
          JSON.readTree(Bounded.read(in, Registry.MAX_MANIFEST_BYTES, "the referrers index"));
      return root != null && root.path("manifests").isArray() ? root : null;
    } catch (IOException e) {
      throw new SourceException(
          FailureReason.VERIFICATION_FAILED,
          "cannot read the signatures of "
              + client.url().display()
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    }
  }
}
