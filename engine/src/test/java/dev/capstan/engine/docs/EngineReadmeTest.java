package dev.capstan.engine.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.ModuleReadme;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** engine/README.md names every package of the engine and every one of its test classes. */
class EngineReadmeTest {
  private static final ModuleReadme README = ModuleReadme.of("engine");

  @Test
  void theLayoutTableNamesEveryPackage() throws IOException {
    List<String> missing = README.packagesMissingFromLayout();
    assertEquals(List.of(), missing, "packages missing from the Layout table of engine/README.md");
  }

  @Test
  void theTestsTableNamesEveryTestClass() throws IOException {
    List<String> missing = README.testClassesMissingFromTests();
    assertEquals(
        List.of(), missing, "test classes missing from the Tests table of engine/README.md");
  }
}
