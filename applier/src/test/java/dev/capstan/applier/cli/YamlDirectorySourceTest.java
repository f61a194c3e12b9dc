package dev.capstan.applier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.TypeConversionException;

class YamlDirectorySourceTest {

  @TempDir Path dir;

  @Test
  void readsFilesRecursivelyInPathOrderWithSeveralDocuments() throws Exception {
    Files.createDirectories(dir.resolve("b"));
    Files.writeString(dir.resolve("b/two.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c2}\n");
    Files.writeString(dir.resolve("a.yml"),
        "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c1}\n");
    Files.writeString(dir.resolve("notes.txt"), "ignored");
    var objects = new YamlDirectorySource().load(dir);
    assertEquals(3, objects.size());
    assertEquals("n", objects.get(0).getMetadata().getName());
    assertEquals("c1", objects.get(1).getMetadata().getName());
    assertEquals("c2", objects.get(2).getMetadata().getName());
  }

  @Test
  void malformedYamlNamesFileAndLine() throws Exception {
    Files.writeString(dir.resolve("bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n");
    var e = assertThrows(ManifestSource.ManifestException.class, () -> new YamlDirectorySource().load(dir));
    assertTrue(e.getMessage().startsWith("bad.yaml: line "), e.getMessage());
  }

  @Test
  void aScalarDocumentIsRejected() throws Exception {
    Files.writeString(dir.resolve("s.yaml"), "just a string\n");
    var e = assertThrows(ManifestSource.ManifestException.class, () -> new YamlDirectorySource().load(dir));
    assertTrue(e.getMessage().contains("s.yaml: document 1"), e.getMessage());
  }

  @Test
  void durationsAreWrittenAsKubernetesDoes() {
    var c = new DurationConverter();
    assertEquals(Duration.ofSeconds(90), c.convert("90s"));
    assertEquals(Duration.ofMinutes(90), c.convert("1h30m"));
    assertEquals(Duration.ofMillis(250), c.convert("250ms"));
    assertThrows(TypeConversionException.class, () -> c.convert("5 minutes"));
  }
}
