package dev.capstan.applier.kustomize;

import static dev.capstan.applier.kustomize.BuildFixture.error;
import static dev.capstan.applier.kustomize.BuildFixture.objects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.capstan.kustomize.worker.Platform;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What builds do where the kernel cannot confine their workers (workers started without the
 * kernel's sandbox stand for such a kernel): the engine refuses unless its operator allowed it, and
 * says so where it builds.
 */
class BuildSandboxTest {
  @TempDir Path dir;

  @BeforeEach
  void files() {
    new BuildFixture(dir)
        .files(Map.of("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"));
  }

  @Test
  void tenantsBuildNothingWithoutTheKernelsSandbox() {
    BuildSandbox sandbox = BuildSandbox.forTenants(dir, false).withoutKernelSandbox();
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.engine(1), sandbox)) {
      BuildError error = error(builder.build(dir, "sha256:a", "app", BuildOptions.none()));
      assertEquals(BuildErrorKind.SANDBOX, error.kind());
      assertEquals(
          "builds need the kernel's sandbox (Landlock and seccomp), which this machine cannot give:"
              + " the worker was started without its sandbox (--no-sandbox); the engine's"
              + " --allow-unconfined-builds builds without it",
          error.message());
    }
  }

  @Test
  void anOperatorMayAllowUnconfinedBuildsWhichSayTheyAre() {
    BuildSandbox sandbox = BuildSandbox.forTenants(dir, true).withoutKernelSandbox();
    try (ManifestBuilder builder = new ManifestBuilder(BuildLimits.engine(1), sandbox)) {
      assertEquals(1, objects(builder.build(dir, "sha256:a", "app", BuildOptions.none())).size());
      assertEquals(
          Optional.of("the worker was started without its sandbox (--no-sandbox)"),
          builder.unconfined());
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
}
