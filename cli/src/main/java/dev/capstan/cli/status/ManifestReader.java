package dev.capstan.cli.status;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.kube.BoundedYaml;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the objects of a multi-document YAML stream, or of one or more concatenated JSON values.
 * Empty documents are skipped and a {@code kind: List} document contributes its items. Any document
 * that is not a Kubernetes object is rejected with its number and line.
 */
final class ManifestReader {

  /** One object and where it came from. */
  record Document(String where, Map<String, Object> object) {}

  /** The input is not a list of Kubernetes objects; the message names the document. */
  static final class BadInputException extends Exception {
    private static final long serialVersionUID = 1L;

    BadInputException(String message) {
      super(message, null, false, false);
    }
  }

  private final String source;
  private final BoundedYaml yaml = new BoundedYaml();

  ManifestReader(String source) {
    this.source = source;
  }

  List<Document> read(String text) throws BadInputException {
    String start = text.stripLeading();
    if (start.startsWith("{") || start.startsWith("[")) {
      try {
        // Concatenated JSON values are not one YAML stream, so JSON is tried first.
        return read(text, true);
      } catch (BadInputException notJson) {
        return read(text, false); // a YAML flow mapping also starts with a brace
      }
    }
    return read(text, false);
  }

  private List<Document> read(String text, boolean json) throws BadInputException {
    return json ? readJson(text) : readYaml(text);
  }

  private List<Document> readYaml(String text) throws BadInputException {
    List<BoundedYaml.Document> parsed;
    try {
      parsed = yaml.readAll(text);
    } catch (BoundedYaml.YamlProblem e) {
      throw new BadInputException(
          where(e.document(), e.line())
              + (e.column() > 0 ? ", column " + e.column() : "")
              + ": not valid YAML: "
              + e.problem());
    }
    List<Document> documents = new ArrayList<>();
    for (int i = 0; i < parsed.size(); i++) {
      addDocument(documents, where(i + 1, parsed.get(i).line()), parsed.get(i).value());
    }
    return documents;
  }

  private List<Document> readJson(String text) throws BadInputException {
    ObjectMapper mapper = new ObjectMapper();
    List<Document> documents = new ArrayList<>();
    int number = 0;
    int line = 1;
    try (JsonParser parser = mapper.createParser(text)) {
      while (true) {
        number++;
        JsonToken token = parser.nextToken();
        if (token == null) {
          break;
        }
        line = parser.currentTokenLocation().getLineNr();
        Object value = mapper.readValue(parser, Object.class);
        addDocument(documents, where(number, line), value);
      }
    } catch (JsonProcessingException e) {
      int errorLine = e.getLocation() == null ? line : e.getLocation().getLineNr();
      String column =
          e.getLocation() == null || e.getLocation().getColumnNr() <= 0
              ? ""
              : ", column " + e.getLocation().getColumnNr();
      throw new BadInputException(where(number, errorLine) + column + ": not valid JSON");
    } catch (IOException e) {
      throw new BadInputException(source + ": cannot read: " + e.getMessage());
    }
    return documents;
  }

  private String where(int number, int line) {
    return source + ": document " + number + " (line " + line + ")";
  }

  @SuppressWarnings("unchecked")
  private static void addDocument(List<Document> documents, String where, Object value)
      throws BadInputException {
    if (value == null) {
      return;
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new BadInputException(where + ": expected a Kubernetes object, found " + kindOf(value));
    }
    Map<String, Object> object = (Map<String, Object>) map;
    requireText(where, object, "apiVersion");
    requireText(where, object, "kind");
    if (isList(object)) {
      List<?> items = object.get("items") instanceof List<?> l ? l : List.of();
      for (int i = 0; i < items.size(); i++) {
        String itemWhere = where + ", items[" + i + "]";
        if (items.get(i) == null) {
          throw new BadInputException(itemWhere + ": expected a Kubernetes object, found null");
        }
        addDocument(documents, itemWhere, items.get(i));
      }
      return;
    }
    documents.add(new Document(where, object));
  }

  private static boolean isList(Map<String, Object> object) {
    return "v1".equals(object.get("apiVersion"))
        && object.get("kind") instanceof String kind
        && kind.endsWith("List")
        && object.get("items") instanceof List<?>;
  }

  private static void requireText(String where, Map<String, Object> object, String field)
      throws BadInputException {
    Object value = object.get(field);
    if (value == null) {
      throw new BadInputException(where + ": missing " + field);
    }
    if (!(value instanceof String text) || text.isEmpty()) {
      throw new BadInputException(
          where + ": " + field + " must be a non-empty string, found " + kindOf(value));
    }
  }

  private static String kindOf(Object value) {
    if (value instanceof List<?>) {
      return "a list";
    }
    if (value instanceof String) {
      return "a string"; // not quoted: the text may be a Secret's value
    }
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "a boolean";
    }
    return value instanceof Map<?, ?> ? "an object" : value.getClass().getSimpleName();
  }
}
