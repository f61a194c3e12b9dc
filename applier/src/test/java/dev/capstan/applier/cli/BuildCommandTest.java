package dev.capstan.applier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BuildCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = new CommandLine(new BuildCommand());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  private static Path resource(String path) throws URISyntaxException {
    return Path.of(BuildCommandTest.class.getClassLoader().getResource(path).toURI());
  }

  @Test
  void printsTheBuiltObjectsAsMultiDocumentYaml() throws Exception {
    Path root = resource("build/cases/overlay");
    assertEquals(0, run("-f", root.resolve("prod").toString(), "--root", root.toString()));
    String expected = Files.readString(resource("build/expected/overlay.yaml"));
    assertEquals(expected.strip(), out.toString().strip());
    assertFalse(out.toString().contains("capstan.dev"), "no Capstan labels");
  }

  @Test
  void badInputExitsTwoWithFileAndLine(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("bad.yaml"), "kind: ConfigMap\napiVersion: v1\nmetadata: {name: [x\n");
    assertEquals(BuildCommand.BAD_INPUT, run("-f", dir.toString()));
    assertTrue(err.toString().matches("(?s)capstan build: bad\\.yaml:\\d+: malformed YAML: .*"), err.toString());
    assertEquals("", out.toString());
  }

  @Test
  void refusesResourcesOutsideTheRoot() throws Exception {
    Path prod = resource("build/cases/overlay/prod");
    assertEquals(BuildCommand.BAD_INPUT, run("-f", prod.toString(), "--root", prod.toString()));
    assertTrue(err.toString().contains("'../base' is outside the artifact root"), err.toString());
  }
}
