package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuiltManifestsTest {

  @TempDir Path dir;

  @Test
  void buildsAPlainDirectoryInTheOrderOfItsFiles() throws Exception {
    Files.createDirectories(dir.resolve("b"));
    Files.writeString(
        dir.resolve("b/two.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c2}\n");
    Files.writeString(
        dir.resolve("a.yml"),
        "apiVersion: v1\n"
            + "kind: ConfigMap\n"
            + "metadata: {name: c1}\n"
            + "---\n"
            + "apiVersion: v1\n"
            + "kind: Namespace\n"
            + "metadata: {name: n}\n");
    var objects = new BuiltManifests().load(dir, BuildRoot.of(dir, null));
    assertEquals(
        List.of("c1", "n", "c2"),
        objects.stream().map(o -> o.getMetadata().getName()).toList(),
        "as Flux builds it: the applier, not the build, puts Namespaces first");
  }

  @Test
  void malformedYamlNamesTheFile() throws Exception {
    Files.writeString(
        dir.resolve("bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n");
    var e =
        assertThrows(
            ManifestSource.ManifestException.class,
            () -> new BuiltManifests().load(dir, BuildRoot.of(dir, null)));
    assertTrue(e.getMessage().contains("bad.yaml"), e.getMessage());
  }

  @Test
  void aMissingDirectoryIsNamed() {
    var e =
        assertThrows(
            ManifestSource.ManifestException.class,
            () -> new BuiltManifests().load(dir.resolve("nope"), BuildRoot.of(dir, null)));
    assertTrue(e.getMessage().contains("nope: not a directory"), e.getMessage());
  }
}
