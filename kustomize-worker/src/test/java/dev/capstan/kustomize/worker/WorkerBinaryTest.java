package dev.capstan.kustomize.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerBinaryTest {
  @TempDir Path cache;

  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  @Test
  void theHostsWorkerIsUnpackedForTheUserOnlyWithItsRecordedDigest() throws IOException {
    WorkerBinary binary = WorkerBinary.forThisMachine(cache.resolve("w"));
    String recorded =
        WorkerBinary.recordedDigests().get(Platform.host().entry(WorkerKind.KUSTOMIZE));
    assertEquals(recorded, WorkerBinary.digestOf(binary.path()));
    assertTrue(binary.path().startsWith(cache.resolve("w")));
    if (posix()) {
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(cache.resolve("w"))));
      assertEquals(
          "r-x------", PosixFilePermissions.toString(Files.getPosixFilePermissions(binary.path())));
    }
    // Unpacked once: a second use finds it and checks it.
    assertEquals(binary.path(), WorkerBinary.forThisMachine(cache.resolve("w")).path());
  }

  /** The jar carries both workers, each with its own recorded digest, unpacked apart. */
  @Test
  void theChartWorkerIsUnpackedBesideTheKustomizeWorkerWithItsOwnDigest() throws IOException {
    WorkerBinary kustomize = WorkerBinary.forThisMachine(cache.resolve("w"));
    WorkerBinary chart = WorkerBinary.forThisMachine(cache.resolve("w"), WorkerKind.CHART);
    assertEquals(WorkerKind.CHART, chart.kind());
    String recorded = WorkerBinary.recordedDigests().get(Platform.host().entry(WorkerKind.CHART));
    assertEquals(recorded, WorkerBinary.digestOf(chart.path()));
    assertTrue(chart.path().getFileName().toString().startsWith("capstan-chart-worker"));
    assertTrue(!recorded.equals(WorkerBinary.digestOf(kustomize.path())));
    assertTrue(Files.size(chart.path()) > Files.size(kustomize.path()), "Helm is in the chart's");
  }

  @Test
  void aChangedWorkerIsReplacedByTheJarsOwn() throws IOException {
    Path path = WorkerBinary.forThisMachine(cache.resolve("w")).path();
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwx------"));
    Files.writeString(path, "#!/bin/sh\necho planted\n");
    Path again = WorkerBinary.forThisMachine(cache.resolve("w")).path();
    assertEquals(
        WorkerBinary.recordedDigests().get(Platform.host().entry(WorkerKind.KUSTOMIZE)),
        WorkerBinary.digestOf(again));
  }

  @Test
  void aCacheOthersMayWriteIsRefused() throws IOException {
    assumeTrue(posix(), "POSIX permissions");
    Path shared = Files.createDirectories(cache.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    WorkerException e =
        assertThrows(WorkerException.class, () -> WorkerBinary.forThisMachine(shared));
    assertEquals(WorkerException.Cause.UNAVAILABLE, e.cause());
    assertTrue(e.getMessage().contains("that no other user may write"), e.getMessage());
  }

  /** Another user could replace the directory the worker is cached in, and so the worker. */
  @Test
  void aCacheBelowADirectoryOthersMayWriteIsRefused() throws IOException {
    assumeTrue(posix(), "POSIX permissions");
    Path open = Files.createDirectories(cache.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    WorkerException e =
        assertThrows(
            WorkerException.class,
            () -> WorkerBinary.forThisMachine(open.resolve("capstan").resolve("worker")));
    assertEquals(WorkerException.Cause.UNAVAILABLE, e.cause());
    assertTrue(
        e.getMessage().startsWith(open.toRealPath() + " holds the build worker"), e.getMessage());
  }

  @Test
  void platformsAreNamedAsGoNamesThem() {
    assertEquals(new Platform("linux", "amd64"), Platform.of("Linux", "amd64"));
    assertEquals(new Platform("linux", "arm64"), Platform.of("Linux", "aarch64"));
    assertEquals(new Platform("darwin", "arm64"), Platform.of("Mac OS X", "aarch64"));
    assertEquals(new Platform("darwin", "amd64"), Platform.of("Mac OS X", "x86_64"));
    assertEquals(new Platform("windows", "amd64"), Platform.of("Windows 11", "amd64"));
    assertTrue(!Platform.of("FreeBSD", "amd64").supported());
    assertEquals(
        "linux/amd64, linux/arm64, darwin/amd64, darwin/arm64, windows/amd64",
        Platform.supportedList());
  }
}
