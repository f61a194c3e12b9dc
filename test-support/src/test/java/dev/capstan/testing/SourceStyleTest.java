package dev.capstan.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.testing.SourceStyle.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java file of the repository names types by their simple names where it can, and keeps its
 * lines within the formatter's limit (the formatter itself, Spotless with google-java-format, runs
 * in every module's build); the packages of the main sources import each other in no circle.
 */
class SourceStyleTest {

  @Test
  void everyJavaFileOfTheRepositoryFollowsTheRules() throws IOException {
    Path root = RepoRoot.find();
    List<String> problems = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.filter(SourceStyleTest::isProjectSource).toList()) {
        SourceStyle style =
            new SourceStyle(name -> Files.exists(file.resolveSibling(name + ".java")));
        for (Problem p : style.check(Files.readString(file))) {
          problems.add(root.relativize(file) + ":" + p.line() + ": " + p.what());
        }
      }
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  @Test
  void thePackagesOfTheMainSourcesImportEachOtherInNoCircle() throws IOException {
    Path root = RepoRoot.find();
    PackageGraph graph = new PackageGraph();
    for (Path file : RepoRoot.mainSources(root)) {
      graph.add(root.relativize(file).toString(), Files.readString(file));
    }
    List<String> cycles = new ArrayList<>();
    for (PackageGraph.Cycle cycle : graph.cycles()) {
      cycles.add(cycle.packages() + " import each other:\n  " + String.join("\n  ", cycle.path()));
    }
    assertTrue(cycles.isEmpty(), String.join("\n", cycles));
  }

  @Test
  void aCircleOfImportsIsFoundAndNamed() {
    PackageGraph graph = new PackageGraph();
    // Only the project's own packages count.
    graph.add("A.java", "package a;\n\nimport a.b.B.Nested;\n\nclass A {}\n");
    graph.add("B.java", "package a.b;\n\nimport static a.c.C.helper;\n\nclass B {}\n");
    graph.add("C.java", "package a.c;\n\nimport a.*;\nimport java.util.List;\n\nclass C {}\n");
    graph.add("D.java", "package a.d;\n\nimport a.A;\n\nclass D {}\n");
    assertEquals(List.of(), graph.cycles());

    graph = new PackageGraph();
    graph.add("A.java", "package dev.capstan.a;\n\nimport dev.capstan.a.b.B.Nested;\nclass A {}\n");
    graph.add(
        "B.java", "package dev.capstan.a.b;\n\nimport static dev.capstan.a.A.f;\nclass B {}\n");
    graph.add("D.java", "package dev.capstan.d;\n\nimport dev.capstan.a.A;\nclass D {}\n");
    assertEquals(
        List.of(
            new PackageGraph.Cycle(
                Set.of("dev.capstan.a", "dev.capstan.a.b"),
                List.of(
                    "dev.capstan.a -> dev.capstan.a.b (A.java)",
                    "dev.capstan.a.b -> dev.capstan.a (B.java)"))),
        graph.cycles());
  }

  @Test
  void aQualifiedNameWhoseSimpleNameIsFreeIsReported() {
    String source =
        """
        package a;

        class A {
          java.util.List<String> names = new java.util.ArrayList<>();
        }
        """;
    assertEquals(
        List.of(
            new Problem(4, "java.util.List written in full: import it"),
            new Problem(4, "java.util.ArrayList written in full: import it")),
        style().check(source));
  }

  @Test
  void aQualifiedNameIsAllowedWhereTheSimpleNameIsTaken() {
    String source =
        """
        package a;

        import b.Artifact;

        class A {
          Artifact mine;
          c.Artifact theirs;
          d.Local other;
          java.lang.String text;
          e.Object thing;
        }
        """;
    assertEquals(List.of(), new SourceStyle("Local"::equals).check(source));
  }

  @Test
  void qualifiedNamesInCommentsAndStringsAreNotCode() {
    String source =
        """
        package a;

        /** See {@link java.util.List}. */
        class A {
          // java.util.Map is not used
          String s = "java.util.Set";
          char c = '"';
          String t = "still a string: java.util.Deque";
        }
        """;
    assertEquals(List.of(), style().check(source));
  }

  @Test
  void longLinesAreReportedExceptInTextBlocks() {
    String longCode = "  int x = " + "1 + ".repeat(30) + "1;";
    String longText = "    " + "word ".repeat(30);
    String source =
        "class A {\n" + longCode + "\n  String t = \"\"\"\n" + longText + "\n    \"\"\";\n}\n";
    assertEquals(
        List.of(new Problem(2, "longer than " + SourceStyle.LINE_LIMIT + " characters")),
        style().check(source));
  }

  private static SourceStyle style() {
    return new SourceStyle(name -> false);
  }

  private static boolean isProjectSource(Path file) {
    String path = file.toString().replace('\\', '/');
    return path.endsWith(".java")
        && !path.contains("/target/")
        && !path.contains("/.git/")
        && !path.contains("/node_modules/")
        && (path.contains("/src/main/java/")
            || path.contains("/src/test/java/")
            || path.contains("/bench/"));
  }
}
