package dev.capstan.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A module's README.md and what its tables must name: every package of the module's main code in
 * the table under "## Layout", every test class in the table under "## Tests".
 */
public final class ModuleReadme {
  private final Path module;

  private ModuleReadme(Path module) {
    this.module = module;
  }

  /** The README of the module in directory {@code name} of the repository. */
  public static ModuleReadme of(String name) {
    return new ModuleReadme(RepoRoot.find().resolve(name));
  }

  /** Whether the module has a README.md at all. */
  public boolean exists() {
    return Files.isRegularFile(module.resolve("README.md"));
  }

  /** The packages of src/main/java that the Layout table does not name as {@code | `p` |}. */
  public List<String> packagesMissingFromLayout() throws IOException {
    String layout = section("## Layout");
    Path sources = module.resolve("src/main/java");
    return files(sources).stream()
        .filter(f -> f.toString().endsWith(".java"))
        .map(f -> sources.relativize(f.getParent()).toString().replace('/', '.'))
        .distinct()
        .sorted()
        .filter(p -> !layout.contains("| `" + p + "` |"))
        .toList();
  }

  /** The test classes (*Test, *IT) of src/test/java that the Tests table does not name. */
  public List<String> testClassesMissingFromTests() throws IOException {
    String tests = section("## Tests");
    return files(module.resolve("src/test/java")).stream()
        .map(f -> f.getFileName().toString())
        .filter(n -> n.endsWith("Test.java") || n.endsWith("IT.java"))
        .map(n -> n.substring(0, n.length() - ".java".length()))
        .filter(n -> !tests.contains("`" + n + "`"))
        .sorted()
        .toList();
  }

  /** Every file and directory under {@code sources}; none when the module has no such tree. */
  private static List<Path> files(Path sources) throws IOException {
    if (!Files.isDirectory(sources)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(sources)) {
      return files.toList();
    }
  }

  private String section(String heading) throws IOException {
    String readme = Files.readString(module.resolve("README.md"));
    int start = readme.indexOf("\n" + heading + "\n");
    if (start < 0) {
      return ""; // no such section: it names nothing
    }
    int end = readme.indexOf("\n## ", start + heading.length() + 2);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }
}
