package dev.capstan.source.oci;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An image manifest (OCI, or Docker's schema 2) as the registry sent it: config, layers and
 * annotations. An index (several platforms) is refused: an artifact of manifests has one.
 */
public record Manifest(
    String mediaType, Descriptor config, List<Descriptor> layers, Map<String, String> annotations) {

  public static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
  public static final String DOCKER_MANIFEST =
      "application/vnd.docker.distribution.manifest.v2+json";
  static final String ACCEPT = OCI_MANIFEST + ", " + DOCKER_MANIFEST;
  private static final Set<String> INDEXES =
      Set.of(
          "application/vnd.oci.image.index.v1+json",
          "application/vnd.docker.distribution.manifest.list.v2+json");

  /** At most this many layers and annotations are read: an artifact has few of either. */
  static final int MAX_LAYERS = 256;

  static final int MAX_ANNOTATIONS = 256;

  private static final ObjectMapper JSON = new ObjectMapper();

  public Manifest {
    layers = List.copyOf(layers);
    annotations = Map.copyOf(annotations);
  }

  static Manifest parse(byte[] body, String contentType) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      throw invalid("the manifest is not JSON");
    }
    if (root == null || !root.isObject()) {
      throw invalid("the manifest is not a JSON object");
    }
    String mediaType = root.path("mediaType").asText(contentType == null ? "" : contentType);
    if (INDEXES.contains(mediaType) || root.has("manifests")) {
      throw invalid("the reference names an index of manifests, not an artifact's manifest");
    }
    if (root.path("schemaVersion").asInt() != 2) {
      throw invalid("the manifest is not of schema version 2");
    }
    JsonNode layers = root.path("layers");
    if (!layers.isArray() || layers.size() > MAX_LAYERS) {
      throw invalid("the manifest has no list of layers, or more than " + MAX_LAYERS);
    }
    List<Descriptor> read = new ArrayList<>();
    for (JsonNode layer : layers) {
      read.add(descriptor(layer));
    }
    return new Manifest(
        mediaType, descriptor(root.path("config")), read, annotations(root.path("annotations")));
  }

  static Descriptor descriptor(JsonNode node) {
    String digest = node.path("digest").asText("");
    if (!OciUrl.DIGEST.matcher(digest).matches()) {
      throw invalid("a descriptor of the manifest has no sha256 digest");
    }
    long size = node.path("size").asLong(-1);
    if (size < 0) {
      throw invalid("a descriptor of the manifest has no size");
    }
    return new Descriptor(
        node.path("mediaType").asText(""), digest, size, annotations(node.path("annotations")));
  }

  private static Map<String, String> annotations(JsonNode node) {
    Map<String, String> annotations = new LinkedHashMap<>();
    if (!node.isObject()) {
      return annotations;
    }
    var fields = node.fields();
    while (fields.hasNext() && annotations.size() < MAX_ANNOTATIONS) {
      var field = fields.next();
      annotations.put(field.getKey(), field.getValue().asText(""));
    }
    return annotations;
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.OCI_PULL_FAILED, message);
  }
}
