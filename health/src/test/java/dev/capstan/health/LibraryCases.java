package dev.capstan.health;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.kube.BoundedYaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The example objects written for the built-in library's entries from the operators' sources (test
 * resources under {@code library/}): each file is a YAML list of {@code {name, expected, object}}
 * cases. Read by the entries' test and by the benchmark.
 */
public final class LibraryCases {
  static final String DIR = "library";
  private static final TypeReference<List<Map<String, Object>>> CASES = new TypeReference<>() {};
  // Through Jackson: whole numbers arrive as Integer, as they do from the engine's client.
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One written example: its file and name, the status it must get, and the object. */
  public record Case(String file, String name, String expected, Map<String, Object> object) {
    /** How tests name the case: {@code file: name}. */
    public String label() {
      return file + ": " + name;
    }
  }

  private LibraryCases() {}

  /** Every case of every file under {@code library/}, files in name order. */
  @SuppressWarnings("unchecked")
  public static List<Case> load() {
    List<Case> cases = new ArrayList<>();
    for (Path file : files()) {
      for (Map<String, Object> example : JSON.convertValue(readYaml(file), CASES)) {
        cases.add(
            new Case(
                file.getFileName().toString(),
                String.valueOf(example.get("name")),
                (String) example.get("expected"),
                (Map<String, Object>) example.get("object")));
      }
    }
    return cases;
  }

  private static List<Path> files() {
    try {
      Path dir = Path.of(LibraryCases.class.getClassLoader().getResource(DIR).toURI());
      try (Stream<Path> files = Files.list(dir)) {
        return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object readYaml(Path file) {
    try {
      return new BoundedYaml().readOne(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (BoundedYaml.YamlProblem e) {
      throw new IllegalStateException(file + ": " + e.getMessage(), e);
    }
  }
}
