package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Packaged charts read as hostile input, and written back reproducibly. */
class ChartArchiveTest {
  private static final ChartLimits LIMITS = ChartLimits.DEFAULTS;

  @Test
  void aChartIsReadWithItsNameVersionAndFilesBelowItsDirectory() {
    ChartFiles chart = read(TestCharts.chart("podinfo", "6.5.4").tgz());

    assertEquals("podinfo", chart.name());
    assertEquals("6.5.4", chart.version());
    assertEquals(
        "[Chart.yaml, templates/configmap.yaml, values.yaml]", chart.files().keySet().toString());
  }

  @Test
  void writingIsReproducibleWithChartYamlFirstAndReadsBack() throws IOException {
    ChartFiles chart = read(TestCharts.chart("podinfo", "6.5.4").tgz());

    byte[] once = ChartArchive.write(chart);
    byte[] again = ChartArchive.write(read(once));

    assertArrayEquals(once, again);
    ChartFiles back = read(once);
    assertEquals(chart.files().keySet(), back.files().keySet());
    assertEquals(
        "replicas: 1\nimage:\n  tag: stable\n",
        new String(back.files().get("values.yaml"), StandardCharsets.UTF_8));
  }

  @Test
  void aLinkIsRefusedByName() {
    String message =
        refused(TestCharts.chart("app", "1.0.0").symlink("app/templates/x.yaml", "/etc/passwd"));
    assertTrue(message.contains("holds a link ('app/templates/x.yaml')"), message);
  }

  @Test
  void aPathLeavingTheChartIsRefused() {
    String message = refused(TestCharts.chart("app", "1.0.0").file("app/../../evil", "x"));
    assertTrue(message.contains("a path leaving the chart ('app/../../evil')"), message);
  }

  @Test
  void anAbsolutePathIsRefused() {
    String message = refused(TestCharts.chart("app", "1.0.0").file("/etc/evil", "x"));
    assertTrue(message.contains("an absolute path"), message);
  }

  @Test
  void aDeviceIsRefused() {
    String message = refused(TestCharts.chart("app", "1.0.0").device("app/null"));
    assertTrue(message.contains("a device or other special file ('app/null')"), message);
  }

  @Test
  void aSecondTopDirectoryIsRefused() {
    String message = refused(TestCharts.chart("app", "1.0.0").file("other/x.yaml", "x"));
    assertTrue(message.contains("more than one top directory"), message);
  }

  @Test
  void aTruncatedArchiveIsRefused() {
    byte[] whole = TestCharts.chart("app", "1.0.0").tgz();
    SourceException e =
        assertThrows(SourceException.class, () -> read(Arrays.copyOf(whole, whole.length / 2)));
    assertTrue(e.getMessage().contains("is truncated or not a tar archive"), e.getMessage());
  }

  @Test
  void somethingNotGzipIsRefused() {
    SourceException e =
        assertThrows(
            SourceException.class,
            () -> read("<html>not found</html>".getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains("is not gzip-compressed"), e.getMessage());
  }

  @Test
  void aChartWithoutChartYamlNameOrVersionIsRefused() {
    assertTrue(
        refused(TestCharts.chart("app", "1.0.0").without("app/Chart.yaml"))
            .contains("has no Chart.yaml"));
    assertTrue(
        refused(TestCharts.chart("app", "1.0.0").file("app/Chart.yaml", "apiVersion: v2\n"))
            .contains("has no chart name"));
    assertTrue(
        refused(TestCharts.chart("app", "1.0.0").file("app/Chart.yaml", "name: app\n"))
            .contains("has no chart version"));
  }

  @Test
  void aFileOrAChartPastItsBoundIsRefusedWithTheBoundNamed() {
    ChartLimits small = new ChartLimits(1 << 20, 100, 100_000, 100);
    byte[] big = TestCharts.chart("app", "1.0.0").file("app/big.txt", "x".repeat(200)).tgz();
    SourceException file =
        assertThrows(
            SourceException.class,
            () -> ChartArchive.read(new ByteArrayInputStream(big), small, "the chart", reason()));
    assertTrue(file.getMessage().contains("the bound of a chart's file"), file.getMessage());

    ChartLimits tiny = new ChartLimits(1 << 20, 10_000, 1000, 100);
    byte[] many = TestCharts.chart("app", "1.0.0").file("app/a.txt", "y".repeat(900)).tgz();
    SourceException all =
        assertThrows(
            SourceException.class,
            () -> ChartArchive.read(new ByteArrayInputStream(many), tiny, "the chart", reason()));
    assertTrue(all.getMessage().contains("the bound of a chart"), all.getMessage());
  }

  private static FailureReason reason() {
    return FailureReason.CHART_PULL_FAILED;
  }

  private static ChartFiles read(byte[] tgz) {
    return ChartArchive.read(new ByteArrayInputStream(tgz), LIMITS, "the chart", reason());
  }

  private static String refused(TestCharts archive) {
    SourceException e = assertThrows(SourceException.class, () -> read(archive.tgz()));
    assertEquals(FailureReason.CHART_PULL_FAILED, e.reason());
    return e.getMessage();
  }
}
