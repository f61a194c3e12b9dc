package dev.capstan.health;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test objects written in the project, read from test resources. */
final class Fixtures {
  /** The clock the fixture files are written against. */
  static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-01T00:01:00Z"), ZoneOffset.UTC);

  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory());

  private Fixtures() {}

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> documents(String resource) {
    try (InputStream in = Fixtures.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      List<Map<String, Object>> documents = new ArrayList<>();
      try (MappingIterator<Object> it = YAML.readerFor(Object.class).readValues(in)) {
        while (it.hasNext()) {
          Object doc = it.next();
          if (doc != null) {
            documents.add((Map<String, Object>) doc);
          }
        }
      }
      return documents;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, Object> yaml(String text) {
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = YAML.readValue(text, Map.class);
      return map;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
