package dev.capstan.health.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.health.yaml.BoundedYaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The objects of the written library examples (test resources under {@code library/}). */
final class LibraryExamples {
  private static final TypeReference<List<Map<String, Object>>> CASES = new TypeReference<>() {};
  // Through Jackson: whole numbers arrive as Integer, as they do from the engine's client.
  private static final ObjectMapper JSON = new ObjectMapper();

  private LibraryExamples() {}

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> load() {
    List<Map<String, Object>> objects = new ArrayList<>();
    for (Path file : files()) {
      try {
        Object cases = new BoundedYaml().readOne(Files.readString(file));
        for (Map<String, Object> example : JSON.convertValue(cases, CASES)) {
          objects.add((Map<String, Object>) example.get("object"));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (BoundedYaml.YamlProblem e) {
        throw new IllegalStateException(file + ": " + e.getMessage(), e);
      }
    }
    if (objects.isEmpty()) {
      throw new IllegalStateException("no examples under library/");
    }
    return objects;
  }

  private static List<Path> files() {
    try {
      Path dir = Path.of(LibraryExamples.class.getClassLoader().getResource("library").toURI());
      try (Stream<Path> files = Files.list(dir)) {
        return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
