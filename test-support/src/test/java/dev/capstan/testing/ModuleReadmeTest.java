package dev.capstan.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every module of the build has a README whose Layout table names each of its packages and whose
 * Tests table names each of its test classes, so that a reader finds a stage, and the tests of a
 * change, on one page.
 */
class ModuleReadmeTest {
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

  @Test
  void everyModuleReadmeNamesItsPackagesAndItsTestClasses() throws IOException {
    List<String> problems = new ArrayList<>();
    for (String module : modules()) {
      ModuleReadme readme = ModuleReadme.of(module);
      if (!readme.exists()) {
        problems.add(module + ": no README.md");
        continue;
      }
      readme.packagesMissingFromLayout().stream()
          .map(p -> module + "/README.md: package " + p + " is missing from the Layout table")
          .forEach(problems::add);
      readme.testClassesMissingFromTests().stream()
          .map(t -> module + "/README.md: test class " + t + " is missing from the Tests table")
          .forEach(problems::add);
    }
    assertEquals(List.of(), problems);
  }

  private static List<String> modules() throws IOException {
    Matcher m = MODULE.matcher(Files.readString(RepoRoot.find().resolve("pom.xml")));
    List<String> modules = new ArrayList<>();
    while (m.find()) {
      modules.add(m.group(1).trim());
    }
    return modules;
  }
}
