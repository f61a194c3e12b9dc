package dev.capstan.source.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.Deadline;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chart directory in a source's tree, read as Helm packages it. */
class ChartDirectoryTest {
  @TempDir Path tree;

  @Test
  void helmignoreIsHonouredAndLinksAreLeftOut() throws IOException {
    Path chart = chart("charts/app", "app", "1.0.0", "");
    write(chart.resolve(".helmignore"), "*.bak\nsecrets/\n");
    write(chart.resolve("notes.bak"), "x");
    write(chart.resolve("secrets/key"), "x");
    write(chart.resolve("templates/.hidden"), "x");
    Files.createSymbolicLink(chart.resolve("templates/link.yaml"), Path.of("/etc/hostname"));

    ChartFiles files = read("charts/app");

    assertEquals("app", files.name());
    assertEquals(
        "[.helmignore, Chart.yaml, templates/configmap.yaml, values.yaml]",
        files.files().keySet().toString());
  }

  @Test
  void vendoredAndFileDependenciesAreKept() throws IOException {
    chart(
        "charts/app",
        "app",
        "1.0.0",
        "dependencies:\n- name: vendored\n  version: 1.0.0\n  repository: https://x.example\n"
            + "- name: lib\n  version: 0.1.0\n  repository: file://../lib\n");
    chart("charts/app/charts/vendored", "vendored", "1.0.0", "");
    chart("charts/lib", "lib", "0.1.0", "");

    ChartFiles files = read("charts/app");

    assertTrue(files.files().containsKey("charts/vendored/Chart.yaml"));
    assertTrue(files.files().containsKey("charts/lib/Chart.yaml"));
    assertTrue(files.files().containsKey("charts/lib/templates/configmap.yaml"));
  }

  @Test
  void aRemoteDependencyThatIsNotVendoredIsRefusedByName() throws IOException {
    chart(
        "app",
        "app",
        "1.0.0",
        "dependencies:\n- name: redis\n  version: 17.x\n"
            + "  repository: https://charts.bitnami.com/bitnami\n");

    SourceException e = assertThrows(SourceException.class, () -> read("app"));

    assertEquals(FailureReason.DEPENDENCY_BUILD_FAILED, e.reason());
    assertTrue(
        e.getMessage()
            .startsWith(
                "dependency 'redis' of repository 'https://charts.bitnami.com/bitnami' is not"),
        e.getMessage());
  }

  @Test
  void downloadedDependenciesCountTowardsTheChartsBound() throws IOException {
    StringBuilder deps = new StringBuilder("dependencies:\n");
    for (int i = 0; i < 5; i++) {
      deps.append("- name: dep")
          .append(i)
          .append("\n  version: 1.x\n  repository: https://charts.example/\n");
    }
    chart("app", "app", "1.0.0", deps.toString());
    ChartLimits limits = new ChartLimits(10L << 20, 1L << 20, 3L << 20, 10_000);
    int[] fetched = {0};
    ChartDirectory.Remote remote =
        dep -> {
          fetched[0]++;
          return new ChartDirectory.Downloaded("1.0.0", new byte[1 << 20]);
        };

    SourceException e =
        assertThrows(
            SourceException.class,
            () ->
                ChartDirectory.read(
                    tree,
                    "app",
                    limits,
                    new Deadline(Clock.systemUTC(), Instant.now().plusSeconds(60)),
                    remote));

    assertEquals(FailureReason.CHART_PACKAGE_FAILED, e.reason());
    assertTrue(e.getMessage().contains("larger than " + (3L << 20)), e.getMessage());
    assertTrue(fetched[0] < 5, "stopped at the bound, not after every download");
  }

  @Test
  void aCycleOfFileDependenciesEndsAtItsBound() throws IOException {
    chart("a", "a", "1.0.0", "dependencies:\n- name: b\n  repository: file://../b\n");
    chart("b", "b", "1.0.0", "dependencies:\n- name: a\n  repository: file://../a\n");

    SourceException e = assertThrows(SourceException.class, () -> read("a"));

    assertEquals(FailureReason.DEPENDENCY_BUILD_FAILED, e.reason());
  }

  @Test
  void aPathLeavingTheArtifactOrWithoutAChartIsAnInvalidReference() throws IOException {
    chart("app", "app", "1.0.0", "");
    SourceException outside = assertThrows(SourceException.class, () -> read("../elsewhere"));
    assertEquals(FailureReason.INVALID_CHART_REFERENCE, outside.reason());
    assertTrue(outside.getMessage().contains("leaves the source's artifact"));
    SourceException none = assertThrows(SourceException.class, () -> read("missing"));
    assertEquals(FailureReason.INVALID_CHART_REFERENCE, none.reason());
    assertFalse(none.getMessage().isEmpty());
  }

  @Test
  void aFileDependencyLeavingTheArtifactIsRefused() throws IOException {
    chart("app", "app", "1.0.0", "dependencies:\n- name: x\n  repository: file://../../x\n");
    SourceException e = assertThrows(SourceException.class, () -> read("app"));
    assertTrue(e.getMessage().contains("leaves the source's artifact"), e.getMessage());
  }

  private ChartFiles read(String path) {
    return ChartDirectory.read(
        tree,
        path,
        ChartLimits.DEFAULTS,
        new Deadline(Clock.systemUTC(), Instant.now().plusSeconds(60)));
  }

  private Path chart(String dir, String name, String version, String extra) throws IOException {
    Path chart = tree.resolve(dir);
    write(chart.resolve("Chart.yaml"), TestCharts.chartYaml(name, version) + extra);
    write(chart.resolve("values.yaml"), "replicas: 1\n");
    write(chart.resolve("templates/configmap.yaml"), "kind: ConfigMap\n");
    return chart;
  }

  private static void write(Path file, String content) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }
}
