package dev.capstan.applier.build;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The name suffix kustomize gives generated ConfigMaps and Secrets: the SHA-256 of a canonical
 * JSON encoding of kind, type and data (sorted keys, HTML characters escaped as Go's encoder does),
 * cut to ten hex characters with the easily misread ones replaced. Matching it exactly keeps names
 * stable when migrating from kustomize or Flux.
 */
final class ContentHash {
  private ContentHash() {}

  /** Renames every resource that asked for a hash suffix. */
  static void addSuffixes(List<Resource> resources) {
    for (Resource resource : resources) {
      if (resource.hashSuffix()) {
        resource.rename(resource.name() + "-" + of(resource));
      }
    }
  }

  static String of(Resource resource) {
    Map<String, Object> encoded = new TreeMap<>();
    encoded.put("kind", resource.kind());
    encoded.put("name", "");
    encoded.put("data", orEmpty(resource.object().get("data")));
    if (resource.kind().equals("Secret")) {
      encoded.put("type", String.valueOf(resource.object().getOrDefault("type", "")));
    } else if (resource.object().get("binaryData") instanceof Map<?, ?> binary && !binary.isEmpty()) {
      encoded.put("binaryData", binary);
    }
    return shorten(sha256(GoJson.encode(encoded)));
  }

  private static Object orEmpty(Object data) {
    return data instanceof Map<?, ?> ? data : Map.of();
  }

  private static String sha256(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  private static String shorten(String hex) {
    StringBuilder out = new StringBuilder(10);
    for (char c : hex.substring(0, 10).toCharArray()) {
      out.append(
          switch (c) {
            case '0' -> 'g';
            case '1' -> 'h';
            case '3' -> 'k';
            case 'a' -> 'm';
            case 'e' -> 't';
            default -> c;
          });
    }
    return out.toString();
  }
}
