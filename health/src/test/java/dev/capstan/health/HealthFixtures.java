package dev.capstan.health;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The public conformance fixtures kept with the module's test resources under {@value #DIRECTORY}
 * (the README there says where each file comes from and under which licence), so that the tests
 * that read them need nothing beside the repository.
 */
public final class HealthFixtures {
  static final String DIRECTORY = "/conformance/";

  private HealthFixtures() {}

  /** The non-blank lines of a fixture file; a missing file is an error, never a skip. */
  public static List<String> lines(String fileName) {
    String resource = DIRECTORY + fileName;
    try (InputStream in = HealthFixtures.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "missing test resource " + resource + " (health/src/test/resources" + resource + ")");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(line -> !line.isBlank())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(resource, e);
    }
  }
}
