package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Chart archives written entry by entry, hostile ones among them. */
class ChartArchiveTest {
  private static final String CHART_YAML = "apiVersion: v2\nname: demo\nversion: 1.0.0+b.1\n";
  private static final ChartArchive ARCHIVE =
      new ChartArchive(new ChartArchive.Limits(1 << 20, 4096, 50));

  @TempDir Path work;

  @Test
  void aChartArchiveReadsAsItsChartYamlSays() throws Exception {
    Path tgz = archive(tar -> file(tar, "demo/Chart.yaml", CHART_YAML));
    ChartArchive.Metadata metadata = ARCHIVE.check(tgz, "demo", "1.0.0+b.1");
    assertEquals(new ChartArchive.Metadata("demo", "1.0.0+b.1"), metadata);
  }

  @Test
  void hostileArchivesAreRefusedNamingWhatIsWrong() throws Exception {
    refused(
        archive(
            tar -> {
              file(tar, "demo/Chart.yaml", CHART_YAML);
              file(tar, "demo/../../escaped.yaml", "x");
            }),
        "leaves the chart's directory");
    refused(
        archive(
            tar -> {
              file(tar, "demo/Chart.yaml", CHART_YAML);
              TarArchiveEntry link = new TarArchiveEntry("demo/link", TarArchiveEntry.LF_SYMLINK);
              link.setLinkName("/etc/passwd");
              tar.putArchiveEntry(link);
              tar.closeArchiveEntry();
            }),
        "is a link");
    refused(
        archive(
            tar -> {
              file(tar, "demo/Chart.yaml", CHART_YAML);
              file(tar, "other/values.yaml", "x");
            }),
        "outside its top directory");
    refused(
        archive(
            tar -> {
              file(tar, "demo/Chart.yaml", CHART_YAML);
              file(tar, "demo/big.bin", "x".repeat(5000));
            }),
        "larger than 4096 bytes");
    refused(
        archive(
            tar -> {
              for (int i = 0; i < 60; i++) {
                file(tar, "demo/f" + i, "x");
              }
            }),
        "more than 50 entries");
    refused(archive(tar -> file(tar, "demo/values.yaml", "a: 1\n")), "no Chart.yaml");
    refused(archive(tar -> file(tar, "demo/Chart.yaml", "[not, a, map]")), "has no name");
    Path truncated = archive(tar -> file(tar, "demo/Chart.yaml", CHART_YAML));
    byte[] bytes = Files.readAllBytes(truncated);
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length / 2));
    refused(truncated, "no tar+gzip archive");
  }

  @Test
  void anotherChartOrVersionThanTheTagsIsRefused() throws Exception {
    Path tgz = archive(tar -> file(tar, "demo/Chart.yaml", CHART_YAML));
    assertTrue(message(() -> ARCHIVE.check(tgz, "other", "1.0.0+b.1")).contains("names chart"));
    assertTrue(message(() -> ARCHIVE.check(tgz, "demo", "1.0.0")).contains("has version"));
  }

  private static void refused(Path tgz, String expected) {
    String message = message(() -> ARCHIVE.check(tgz, "demo", "1.0.0+b.1"));
    assertTrue(message.contains(expected), message);
  }

  private static String message(Runnable check) {
    SourceException e = assertThrows(SourceException.class, check::run);
    assertEquals(FailureReason.OCI_LAYER_FAILED, e.reason());
    return e.getMessage();
  }

  interface Entries {
    void write(TarArchiveOutputStream tar) throws IOException;
  }

  private Path archive(Entries entries) throws IOException {
    Path tgz = Files.createTempFile(work, "chart", ".tgz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(tgz));
        TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      entries.write(tar);
    }
    return tgz;
  }

  private static void file(TarArchiveOutputStream tar, String name, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    TarArchiveEntry entry = new TarArchiveEntry(name);
    entry.setSize(bytes.length);
    tar.putArchiveEntry(entry);
    tar.write(bytes);
    tar.closeArchiveEntry();
  }
}
