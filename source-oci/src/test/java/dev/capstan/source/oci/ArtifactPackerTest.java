package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a pushed artifact's layer holds of a directory, by the ignore rules given. */
class ArtifactPackerTest {
  @TempDir Path dir;
  @TempDir Path out;

  private void tree(Map<String, String> files) throws IOException {
    for (var file : files.entrySet()) {
      Path path = dir.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.writeString(path, file.getValue());
    }
  }

  private List<String> packed(String ignore) throws IOException {
    ArtifactPacker.Packed layer = ArtifactPacker.pack(dir, ignore, out.resolve("layer.tgz"));
    List<String> names = new ArrayList<>();
    try (InputStream file = Files.newInputStream(layer.file());
        TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(file))) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        names.add(entry.getName());
      }
    }
    return names;
  }

  /** A checkout: its Git directory with a remote's credentials, a submodule's .git file. */
  private void checkout() throws IOException {
    tree(
        Map.of(
            ".git/config",
            "[remote \"origin\"]\n\turl = https://user:token@git.example/app.git\n",
            ".git/HEAD",
            "ref: refs/heads/main\n",
            "app/cm.yaml",
            "kind: ConfigMap\n",
            "app/README.md",
            "notes\n",
            "vendor/lib/.git",
            "gitdir: ../../.git/modules/lib\n",
            "vendor/lib/cm.yaml",
            "kind: ConfigMap\n"));
  }

  @Test
  void theDefaultsLeaveOutTheGitDirectory() throws IOException {
    checkout();
    assertEquals(
        List.of(
            "app/", "app/README.md", "app/cm.yaml", "vendor/", "vendor/lib/", "vendor/lib/cm.yaml"),
        packed(ArtifactPacker.DEFAULT_IGNORE));
  }

  /** --ignore-paths replaces the defaults, as Flux's does; .git stays out all the same. */
  @Test
  void rulesInPlaceOfTheDefaultsStillLeaveOutGit() throws IOException {
    checkout();
    assertEquals(
        List.of("app/", "app/cm.yaml", "vendor/", "vendor/lib/", "vendor/lib/cm.yaml"),
        packed("*.md"));
  }

  @Test
  void noRuleBringsGitBack() throws IOException {
    checkout();
    assertEquals(
        List.of("app/", "app/cm.yaml", "vendor/", "vendor/lib/", "vendor/lib/cm.yaml"),
        packed("*.md\n!.git\n!.git/\n!**/.git"));
  }
}
