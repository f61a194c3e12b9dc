package dev.capstan.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.capstan.testing.ModuleReadme;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** cli/README.md names every package of the command line and every one of its test classes. */
class CliReadmeTest {
  private static final ModuleReadme README = ModuleReadme.of("cli");

  @Test
  void theLayoutTableNamesEveryPackage() throws IOException {
    assertEquals(
        List.of(),
        README.packagesMissingFromLayout(),
        "packages missing from the Layout table of cli/README.md");
  }

  @Test
  void theTestsTableNamesEveryTestClass() throws IOException {
    assertEquals(
        List.of(),
        README.testClassesMissingFromTests(),
        "test classes missing from the Tests table of cli/README.md");
  }
}
