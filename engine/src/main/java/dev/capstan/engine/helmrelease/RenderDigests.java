package dev.capstan.engine.helmrelease;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.kustomize.CommonMetadata;
import dev.capstan.engine.conditions.ReleaseObservation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The digests of a HelmRelease's {@code spec.postRenderers} and {@code spec.commonMetadata}, as its
 * status records them once a release made with them succeeded ({@code observedPostRenderersDigest},
 * {@code observedCommonMetadataDigest}). Neither is in the values, so the config digest alone would
 * not see a change of them; a digest that differs from the observed one makes the release upgrade.
 * None (null) when the spec has none, so that releases made before either was set stay unchanged.
 */
final class RenderDigests {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private RenderDigests() {}

  static ReleaseObservation.RenderDigests of(HelmReleaseSpec spec) {
    return new ReleaseObservation.RenderDigests(
        spec.allPostRenderers().isEmpty() ? null : digest(spec.allPostRenderers()),
        isEmpty(spec.commonMetadata()) ? null : digest(spec.commonMetadata()));
  }

  static boolean isEmpty(CommonMetadata common) {
    return common == null
        || (common.labels() == null || common.labels().isEmpty())
            && (common.annotations() == null || common.annotations().isEmpty());
  }

  private static String digest(Object value) {
    try {
      byte[] bytes = JSON.writeValueAsString(value).getBytes(StandardCharsets.UTF_8);
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("a spec's post-renderers are always JSON", e);
    }
  }
}
