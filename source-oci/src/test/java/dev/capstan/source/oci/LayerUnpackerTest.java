package dev.capstan.source.oci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.oci.testing.Layers;
import dev.capstan.source.oci.testing.RawTar;
import dev.capstan.testing.MutableClock;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayerUnpackerTest {
  private static final LayerUnpacker.Limits LIMITS = new LayerUnpacker.Limits(1 << 20, 100);
  private static final Instant NEVER = Instant.MAX;
  private static final long MIB = 1 << 20;

  @TempDir Path dir;

  private void unpack(byte[] layer, LayerUnpacker.Limits limits) throws Exception {
    LayerUnpacker.unpack(new ByteArrayInputStream(layer), dir, limits, Clock.systemUTC(), NEVER);
  }

  private SourceException refused(byte[] layer, LayerUnpacker.Limits limits) {
    return assertThrows(SourceException.class, () -> unpack(layer, limits));
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

  @Test
  void aGnuLongNameDeclaringMoreThanItsBoundIsRefusedBeforeItIsRead() throws Exception {
    // 256 MiB declared, 1 KiB there: reading it would end with "not a readable tar archive".
    byte[] layer =
        new RawTar().header("././@LongLink", 'L', 256 * MIB).data(1024, (byte) 'a').bytes();
    SourceException e = refused(layer, LIMITS);
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
    assertEquals(
        "an entry of the layer declares a GNU long name of 268435456 bytes, more than the limit"
            + " of 16385",
        e.getMessage());
  }

  @Test
  void aGnuLongNameOfHundredsOfMebibytesEndsWithoutReadingIt() throws Exception {
    // The layer of the audit: 256 MiB of 'a' as a long name, about 261 KB compressed.
    byte[] layer =
        new RawTar()
            .header("././@LongLink", 'L', 256 * MIB)
            .data(256 * MIB, (byte) 'a')
            .header("short", '0', 0)
            .bytes();
    long start = System.nanoTime();
    SourceException e = refused(layer, OciSourceOptions.DEFAULT_LIMITS);
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
    assertTrue(e.getMessage().contains("GNU long name of 268435456 bytes"), e.getMessage());
    assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 1000);
  }

  @Test
  void aPaxHeaderDeclaringMoreThanItsBoundIsRefusedBeforeItIsRead() throws Exception {
    byte[] layer =
        new RawTar().header("PaxHeaders/x", 'x', 256 * MIB).data(1024, (byte) 'a').bytes();
    SourceException e = refused(layer, LIMITS);
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
    assertEquals(
        "an entry of the layer declares a PAX header of 268435456 bytes, more than the limit of"
            + " 1048576",
        e.getMessage());
  }

  @Test
  void globalPaxHeadersAreBoundedTogether() throws Exception {
    byte[] record = RawTar.pax("comment", "c".repeat(5000));
    byte[] layer =
        new RawTar()
            .header("g1", 'g', record.length)
            .data(record)
            .header("g2", 'g', record.length)
            .data(record)
            .header("a.yaml", '0', 0)
            .bytes();
    SourceException e = refused(layer, LIMITS);
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
    assertTrue(e.getMessage().contains("global PAX headers are larger than 8192"), e.getMessage());
  }

  @Test
  void aChainOfHeadersBeforeOneEntryIsRefused() throws Exception {
    RawTar tar = new RawTar();
    byte[] record = RawTar.pax("comment", "c");
    for (int i = 0; i < 10_000; i++) {
      tar.header("x" + i, 'x', record.length).data(record);
    }
    SourceException e = refused(tar.header("a.yaml", '0', 0).bytes(), LIMITS);
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
    assertTrue(e.getMessage().contains("more than 8 headers"), e.getMessage());
  }

  @Test
  void theHeadersOfOneEntryAreBoundedInBytes() throws Exception {
    // An old GNU sparse map goes on in extension records, each read whole by the tar reader.
    RawTar tar = new RawTar().oldGnuSparse("sparse", 0, true);
    for (int i = 0; i < 8192; i++) {
      tar.sparseExtension(true);
    }
    SourceException e =
        refused(tar.sparseExtension(false).bytes(), new LayerUnpacker.Limits(64 * MIB, 100));
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
    assertTrue(
        e.getMessage().contains("headers of an entry of the layer are larger than"),
        e.getMessage());
  }

  @Test
  void namesUpToTheLimitStillUnpackAsGnuLongNamesAndPaxPaths() throws Exception {
    String deep = "d/".repeat(100) + "a.yaml";
    byte[] name = (deep + "\0").getBytes(StandardCharsets.UTF_8);
    byte[] path = RawTar.pax("path", "p/" + "e".repeat(200) + ".yaml");
    byte[] layer =
        new RawTar()
            .header("././@LongLink", 'L', name.length)
            .data(name)
            .header("short", '0', 1)
            .data(new byte[] {'g'})
            .header("PaxHeaders/p", 'x', path.length)
            .data(path)
            .header("short2", '0', 1)
            .data(new byte[] {'p'})
            .bytes();
    unpack(layer, LIMITS);
    assertEquals("g", Files.readString(dir.resolve(deep)));
    assertEquals("p", Files.readString(dir.resolve("p/" + "e".repeat(200) + ".yaml")));
  }

  @Test
  void theBodiesOfEntriesLeftOutCountAgainstTheByteLimit() throws Exception {
    // Links and devices are not written, but their bodies are decompressed all the same.
    RawTar tar = new RawTar();
    for (char type : new char[] {'2', '1', '3', '4', '6'}) {
      tar.header("left-out-" + type, type, 300 << 10).data(300 << 10, (byte) 'x');
    }
    SourceException e = refused(tar.bytes(), LIMITS);
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, e.reason());
    assertTrue(e.getMessage().contains("left-out-4"), e.getMessage());
  }

  @Test
  void anEntryDeclaringMoreThanTheLimitIsRefusedBeforeItIsRead() throws Exception {
    byte[] layer = new RawTar().header("link", '2', 64 * MIB).data(10, (byte) 'x').bytes();
    SourceException e = refused(layer, LIMITS);
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, e.reason());
    assertTrue(e.getMessage().contains("(at 'link')"), e.getMessage());
  }

  @Test
  void everyDecompressedByteCountsHeadersToo() throws Exception {
    // Many PAX headers of 1 MiB, each within its bound: together past the limit of 4 MiB.
    RawTar tar = new RawTar();
    byte[] record = RawTar.pax("comment", "c".repeat((int) MIB - 20));
    for (int i = 0; i < 8; i++) {
      tar.header("x" + i, 'x', record.length).data(record).header("f" + i, '0', 0);
    }
    SourceException e = refused(tar.bytes(), new LayerUnpacker.Limits(4 * MIB, 100));
    assertEquals(FailureReason.SIZE_LIMIT_EXCEEDED, e.reason());
    assertTrue(e.getMessage().contains("decompresses to more than"), e.getMessage());
  }

  @Test
  void unpackingEndsAtTheDeadline() throws Exception {
    byte[] layer = new Layers().file("a.yaml", "a").file("b.yaml", "b").bytes();
    MutableClock clock = new MutableClock(Instant.parse("2026-11-29T08:00:00Z"));
    Instant deadline = clock.instant().plusSeconds(60);
    clock.advance(Duration.ofSeconds(61));
    SourceException e =
        assertThrows(
            SourceException.class,
            () ->
                LayerUnpacker.unpack(
                    new ByteArrayInputStream(layer), dir, LIMITS, clock, deadline));
    assertEquals(FailureReason.OCI_PULL_FAILED, e.reason());
    assertEquals("the pull timed out while unpacking the layer", e.getMessage());
    assertFalse(Files.exists(dir.resolve("a.yaml")));
  }
}
