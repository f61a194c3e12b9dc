package dev.capstan.decryption;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.capstan.kube.BoundedYaml;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;

/** YAML, JSON and binary (a JSON envelope) documents, read in document order. */
final class StructuredFormats {
  /**
   * Nodes (YAML) and tokens (JSON) a document may be written with: twice its values (a key and a
   * value each), and room for the metadata. Counted while the text is parsed, so that a long flow
   * sequence in a hostile document is refused at the bound, not after it was read whole.
   */
  private static final long MAX_NODES = 2L * DocumentBounds.MAX_VALUES + 10_000;

  private static final StreamReadConstraints LIMITS =
      StreamReadConstraints.builder()
          .maxNestingDepth(100)
          .maxStringLength(5 << 20)
          .maxTokenCount(2 * MAX_NODES)
          .build();
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .build();
  private static final BoundedYaml YAML = new BoundedYaml(MAX_NODES);
  private static final DumpSettings YAML_OUT =
      DumpSettings.builder()
          .setDefaultFlowStyle(FlowStyle.BLOCK)
          .setIndent(2)
          .setIndicatorIndent(0)
          .build();
  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

  static {
    JSON.getFactory().setStreamReadConstraints(LIMITS);
  }

  private StructuredFormats() {}

  static Document readYaml(byte[] content) {
    List<Object> branches = new ArrayList<>();
    Object metadata = null;
    for (LinkedHashMap<String, Object> doc : yamlDocuments(content)) {
      Object sops = doc.remove("sops");
      metadata = sops == null ? metadata : sops;
      branches.add(doc);
    }
    return document(branches, metadata);
  }

  /** Each document of a YAML stream with its own metadata (none for a plain document). */
  static List<Document> readYamlEach(byte[] content) {
    List<Document> result = new ArrayList<>();
    for (LinkedHashMap<String, Object> doc : yamlDocuments(content)) {
      Object sops = doc.remove("sops");
      result.add(new Document(new ArrayList<>(List.of(doc)), sops));
    }
    return result;
  }

  /** The non-empty documents of a YAML stream, each a mapping with string keys. */
  private static List<LinkedHashMap<String, Object>> yamlDocuments(byte[] content) {
    List<LinkedHashMap<String, Object>> docs = new ArrayList<>();
    try {
      for (BoundedYaml.Document doc : YAML.readAll(new String(content, StandardCharsets.UTF_8))) {
        if (doc.value() != null) {
          docs.add(JSON.convertValue(doc.value(), MAP));
        }
      }
    } catch (BoundedYaml.YamlProblem e) {
      // The problem names the line and what is wrong, never the text there.
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "the document is not valid YAML within the bounds (line "
              + e.line()
              + ": "
              + e.problem()
              + ")");
    } catch (IllegalArgumentException e) {
      throw malformed("YAML");
    }
    return docs;
  }

  static Document readJson(byte[] content) {
    LinkedHashMap<String, Object> doc;
    try {
      doc = JSON.readValue(content, MAP);
    } catch (StreamConstraintsException e) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "the document is not JSON within the bounds (at most "
              + LIMITS.getMaxTokenCount()
              + " tokens, "
              + LIMITS.getMaxNestingDepth()
              + " levels)");
    } catch (IOException | RuntimeException e) {
      throw malformed("JSON");
    }
    if (doc == null) {
      throw malformed("JSON");
    }
    Object sops = doc.remove("sops");
    return document(new ArrayList<>(List.of(doc)), sops);
  }

  static byte[] writeYaml(List<Object> branches) {
    StringBuilder out = new StringBuilder();
    try {
      for (int i = 0; i < branches.size(); i++) {
        if (i > 0) {
          out.append("---\n");
        }
        out.append(new Dump(YAML_OUT).dumpToString(branches.get(i)));
      }
    } catch (RuntimeException e) {
      throw new IllegalStateException("a decrypted tree is always writable", e);
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  static byte[] writeJson(List<Object> branches) {
    try {
      return JSON.writeValueAsBytes(branches.get(0));
    } catch (IOException e) {
      throw new IllegalStateException("a decrypted tree is always writable", e);
    }
  }

  /** A binary file's bytes: the envelope's {@code data}. */
  static byte[] binaryData(List<Object> branches) {
    if (branches.get(0) instanceof Map<?, ?> map) {
      Object data = map.get("data");
      if (data instanceof byte[] raw) {
        return raw;
      }
      if (data instanceof String text) {
        return text.getBytes(StandardCharsets.UTF_8);
      }
    }
    throw new DecryptionException(
        DecryptionException.Problem.MALFORMED, "the binary envelope has no string 'data'");
  }

  private static Document document(List<Object> branches, Object metadata) {
    if (metadata == null) {
      throw new DecryptionException(
          DecryptionException.Problem.MALFORMED,
          "the document has no sops metadata: it is not SOPS-encrypted");
    }
    return new Document(branches, metadata);
  }

  private static DecryptionException malformed(String format) {
    return new DecryptionException(
        DecryptionException.Problem.MALFORMED, "the document is not valid " + format);
  }
}
