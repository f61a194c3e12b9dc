package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.ModuleReadme;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ui/README.md names every package of the web view and every one of its test classes. */
class UiReadmeTest {
  private static final ModuleReadme README = ModuleReadme.of("ui");

  @Test
  void theLayoutTableNamesEveryPackage() throws IOException {
    assertEquals(
        List.of(),
        README.packagesMissingFromLayout(),
        "packages missing from the Layout table of ui/README.md");
  }

  @Test
  void theTestsTableNamesEveryTestClass() throws IOException {
    assertEquals(
        List.of(),
        README.testClassesMissingFromTests(),
        "test classes missing from the Tests table of ui/README.md");
  }
}
