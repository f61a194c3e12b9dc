package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.FailureReason;
import dev.capstan.source.SourceException;
import dev.capstan.source.oci.testing.Layers;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayerUnpackerTest {
  private static final LayerUnpacker.Limits LIMITS = new LayerUnpacker.Limits(1 << 20, 100);

  @TempDir Path dir;

  private void unpack(byte[] layer, LayerUnpacker.Limits limits) throws Exception {
    LayerUnpacker.unpack(new ByteArrayInputStream(layer), dir, limits);
  }

  @Test
  void unpacksFilesAndDirectoriesEvenWithoutDirectoryEntries() throws Exception {
    unpack(
        new Layers().directory("./").file("./app/cm.yaml", "a: 1").file("b.yaml", "b").bytes(),
        LIMITS);
    assertEquals("a: 1", Files.readString(dir.resolve("app/cm.yaml")));
    assertEquals("b", Files.readString(dir.resolve("b.yaml")));
  }

  @Test
  void refusesAPathThatLeavesTheTree() throws Exception {
    byte[] layer = new Layers().file("app/../../evil.yaml", "x").bytes();
    SourceException e = assertThrows(SourceException.class, () -> unpack(layer, LIMITS));
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
    assertTrue(e.getMessage().contains("leaves the artifact"), e.getMessage());
    assertFalse(Files.exists(dir.getParent().resolve("evil.yaml")));
  }

  @Test
  void refusesAnAbsolutePath() throws Exception {
    byte[] layer = new Layers().file("/etc/evil.yaml", "x").bytes();
    SourceException e = assertThrows(SourceException.class, () -> unpack(layer, LIMITS));
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
  }

  @Test
  void leavesLinksOutSoNothingPointsOutOfTheTree() throws Exception {
    unpack(
        new Layers()
            .symlink("out", "/etc")
            .symlink("up", "../..")
            .hardlink("hard", "/etc/passwd")
            .file("kept.yaml", "k")
            .bytes(),
        LIMITS);
    assertFalse(Files.exists(dir.resolve("out"), LinkOption.NOFOLLOW_LINKS));
    assertFalse(Files.exists(dir.resolve("up"), LinkOption.NOFOLLOW_LINKS));
    assertFalse(Files.exists(dir.resolve("hard"), LinkOption.NOFOLLOW_LINKS));
    assertTrue(Files.exists(dir.resolve("kept.yaml")));
  }

  @Test
  void aFileCannotBeWrittenThroughALinkOfAnEarlierEntry() throws Exception {
    unpack(new Layers().symlink("d", "/tmp").file("d/x.yaml", "x").bytes(), LIMITS);
    assertTrue(Files.isDirectory(dir.resolve("d"), LinkOption.NOFOLLOW_LINKS));
    assertEquals("x", Files.readString(dir.resolve("d/x.yaml")));
  }

  @Test
  void stopsPastTheByteLimit() throws Exception {
    byte[] layer = new Layers().file("big", "x".repeat(2000)).bytes();
    SourceException e =
        assertThrows(
            SourceException.class, () -> unpack(layer, new LayerUnpacker.Limits(1000, 100)));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, e.reason());
  }

  @Test
  void stopsPastTheEntryLimit() throws Exception {
    Layers many = new Layers();
    for (int i = 0; i < 20; i++) {
      many.file("f" + i, "");
    }
    byte[] layer = many.bytes();
    SourceException e =
        assertThrows(
            SourceException.class, () -> unpack(layer, new LayerUnpacker.Limits(1000, 10)));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, e.reason());
  }

  @Test
  void refusesWhatIsNotGzip() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> unpack("not a layer".getBytes(StandardCharsets.UTF_8), LIMITS));
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
  }
}
