package dev.capstan.applier.kustomize;

import static dev.capstan.applier.kustomize.BuildFixture.error;
import static dev.capstan.applier.kustomize.BuildFixture.objects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.capstan.kustomize.chart.ChartRenderException;
import dev.capstan.kustomize.chart.ChartRenderRequest;
import dev.capstan.kustomize.worker.Platform;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What builds do where the kernel cannot confine their workers (workers started without Landlock
 * stand for such a kernel): the engine refuses unless its operator allowed it, and says so where it
 * builds.
 */
class BuildSandboxTest {
  /** What a worker without Landlock says of itself. */
  static final String WITHOUT_LANDLOCK =
      "Landlock was not entered (--test-skip-landlock): only the worker's own file system keeps"
          + " builds below the root; its system call filter is in force (no sockets, no programs)";

  @TempDir Path dir;

  @BeforeEach
  void files() {
    new BuildFixture(dir)
        .files(Map.of("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"));
  }

  @Test
  void tenantsBuildNothingWithoutTheKernelsSandbox() {
    assumeTrue(Platform.host().confinesWorkers(), "Landlock is Linux's");
    BuildSandbox sandbox = BuildSandbox.forTenants(dir, false).withoutLandlock();
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.engine(1), sandbox)) {
      BuildError error = error(builder.build(dir, "sha256:a", "app", BuildOptions.none()));
      assertEquals(BuildErrorKind.SANDBOX, error.kind());
      assertEquals(
          "builds need the kernel's sandbox (Landlock and seccomp), which this machine cannot give:"
              + " "
              + WITHOUT_LANDLOCK
              + "; the engine's --allow-unconfined-builds builds without it",
          error.message());
    }
  }

  @Test
  void anOperatorMayAllowUnconfinedBuildsWhichSayTheyAre() {
    assumeTrue(Platform.host().confinesWorkers(), "Landlock is Linux's");
    BuildSandbox sandbox = BuildSandbox.forTenants(dir, true).withoutLandlock();
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.engine(1), sandbox)) {
      assertEquals(1, objects(builder.build(dir, "sha256:a", "app", BuildOptions.none())).size());
      assertEquals(Optional.of(WITHOUT_LANDLOCK), builder.unconfined());
    }
  }

  /** Charts rendered through a builder run in its sandbox: not unconfined unless allowed. */
  @Test
  void chartsRenderOnlyInTheBuildsSandbox() {
    assumeTrue(Platform.host().confinesWorkers(), "Landlock is Linux's");
    new BuildFixture(dir)
        .files(
            Map.of(
                "chart/Chart.yaml",
                "apiVersion: v2\nname: c\nversion: 0.1.0\n",
                "chart/templates/cm.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: {{ .Release.Name }}}\n"));
    ChartRenderRequest request = ChartRenderRequest.of(dir, "chart", "r", "n");
    BuildSandbox strict = BuildSandbox.forTenants(dir, false).withoutLandlock();
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.engine(1), strict)) {
      ChartRenderException e =
          assertThrows(ChartRenderException.class, () -> builder.charts().render(request));
      assertEquals(ChartRenderException.Stage.SANDBOX, e.stage());
    }
    BuildSandbox allowed = BuildSandbox.forTenants(dir, true).withoutLandlock();
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.engine(1), allowed)) {
      String manifest = builder.charts().render(request).manifest();
      assertTrue(manifest.contains("metadata: {name: r}"), manifest);
    }
  }

  @Test
  void confinedBuildsSayNothing() {
    assumeTrue(Platform.host().confinesWorkers(), "the kernel's sandbox is Linux's");
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.engine(1), BuildSandbox.forTenants(dir, false))) {
      assertEquals(1, objects(builder.build(dir, "sha256:a", "app", BuildOptions.none())).size());
      assertTrue(builder.unconfined().isEmpty());
    }
  }

  /**
   * A worker without Landlock still loads its system call filter, and no worker fetches a URL: a
   * generator's file named by one (a "metadata" address of the host's) fails the build, and the
   * address is never asked.
   */
  @Test
  void anUnconfinedBuildFetchesNothing() throws IOException {
    AtomicInteger requests = new AtomicInteger();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          byte[] body = "instance-secret".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/latest/meta-data";
    new BuildFixture(dir)
        .files(
            Map.of(
                "leak/kustomization.yaml",
                "configMapGenerator:\n- name: leak\n  files: [" + url + "]\n"));
    BuildSandbox sandbox = BuildSandbox.forTenants(dir, true).withoutLandlock();
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.engine(1), sandbox)) {
      BuildError error = error(builder.build(dir, "sha256:a", "leak", BuildOptions.none()));
      assertEquals(BuildErrorKind.KUSTOMIZE, error.kind(), error.message());
      assertTrue(
          error.message().contains("remote files are not supported: a URL in a generator's files"),
          error.message());
      assertFalse(error.message().contains("127.0.0.1"), error.message());
      if (Platform.host().confinesWorkers()) {
        assertEquals(Optional.of(WITHOUT_LANDLOCK), builder.unconfined());
      }
    } finally {
      server.stop(0);
    }
    assertEquals(0, requests.get());
  }
}
