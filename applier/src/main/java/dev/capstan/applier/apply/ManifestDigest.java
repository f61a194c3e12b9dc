package dev.capstan.applier.apply;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/** SHA-256 of an object's canonical JSON (map keys sorted), so key order never matters. */
final class ManifestDigest {

  private static final ObjectMapper CANONICAL =
      Serialization.jsonMapper()
          .copy()
          .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private ManifestDigest() {}

  public static String of(Map<String, Object> manifest) {
    try {
      byte[] json = CANONICAL.writeValueAsString(manifest).getBytes(StandardCharsets.UTF_8);
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(json);
      return "sha256:" + HexFormat.of().formatHex(hash);
    } catch (JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot digest manifest", e);
    }
  }
}
