package dev.capstan.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.cel.BuiltinLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/health-library.md must be what {@link HealthLibraryDoc} renders from the library resource.
 * Run with {@code -Dcapstan.updateDocs=true} to rewrite it.
 */
class HealthLibraryDocTest {
  static final String UPDATE_PROPERTY = "capstan.updateDocs";

  @Test
  void committedTableMatchesTheLibrary() throws IOException {
    String expected = HealthLibraryDoc.render(libraryYaml());
    Path doc =
        RepoRoot.find()
            .orElseThrow(() -> new IllegalStateException("repository root not found"))
            .resolve("docs")
            .resolve("health-library.md");
    if (Boolean.getBoolean(UPDATE_PROPERTY)) {
      Files.createDirectories(doc.getParent());
      Files.writeString(doc, expected, StandardCharsets.UTF_8);
    }
    assertTrue(
        Files.isRegularFile(doc), doc + " is missing; run with -D" + UPDATE_PROPERTY + "=true");
    assertEquals(
        expected,
        Files.readString(doc, StandardCharsets.UTF_8),
        doc + " is out of date with the library; run with -D" + UPDATE_PROPERTY + "=true");
  }

  @Test
  void everyEntryIsDocumented() throws IOException {
    String page = HealthLibraryDoc.render(libraryYaml());
    int rows = (int) page.lines().filter(line -> line.startsWith("| `")).count();
    assertEquals(BuiltinLibrary.load().entries().size(), rows);
  }

  static String libraryYaml() throws IOException {
    try (InputStream in = HealthLibraryDocTest.class.getResourceAsStream(BuiltinLibrary.RESOURCE)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
