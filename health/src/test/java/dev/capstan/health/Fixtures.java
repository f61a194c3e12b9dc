package dev.capstan.health;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.capstan.kube.BoundedYaml;
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
public final class Fixtures {
  /** The clock the fixture files are written against. */
  public static final Clock CLOCK =
      Clock.fixed(Instant.parse("2025-01-01T00:01:00Z"), ZoneOffset.UTC);

  private Fixtures() {}

  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> documents(String resource) {
    try (InputStream in = Fixtures.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + resource);
      }
      List<Map<String, Object>> documents = new ArrayList<>();
      for (BoundedYaml.Document doc :
          new BoundedYaml().readAll(new String(in.readAllBytes(), UTF_8))) {
        if (doc.value() != null) {
          documents.add((Map<String, Object>) doc.value());
        }
      }
      return documents;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (BoundedYaml.YamlProblem e) {
      throw new IllegalStateException(resource + ": " + e.getMessage(), e);
    }
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> yaml(String text) {
    try {
      return (Map<String, Object>) new BoundedYaml().readOne(text);
    } catch (BoundedYaml.YamlProblem e) {
      throw new IllegalStateException(e);
    }
  }
}
