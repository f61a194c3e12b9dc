package dev.capstan.applier.kustomize;

import static dev.capstan.applier.kustomize.BuildFixture.error;
import static dev.capstan.applier.kustomize.BuildFixture.objects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input: a build is confined to its artifact, bounded in time, memory and depth, and never
 * leaves a worker stuck; and what is kept between builds is kept by content.
 */
class BuildSafetyTest {
  private static final String CONFIG_MAP =
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\n";

  @TempDir Path dir;

  private BuildFixture fixture(Map<String, String> files) {
    return new BuildFixture(dir).files(files);
  }

  private static void assertStillBuilds(ManifestBuilder builder, Path root) throws Exception {
    Files.createDirectories(root.resolve("fine"));
    Files.writeString(root.resolve("fine/cm.yaml"), CONFIG_MAP.formatted("fine"));
    assertEquals(1, objects(builder.build(root, "fine", BuildOptions.none())).size());
  }

  @Test
  void aBuildPastItsTimeIsStoppedAndTheNextOneRuns() throws Exception {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 60_000; i++) {
      many.append(CONFIG_MAP.formatted("cm-" + i)).append("---\n");
    }
    fixture(Map.of("slow/all.yaml", many.toString()));
    // 1 s: far less than 60,000 objects take (kustomize checks each new object against those it
    // has), and enough for the next build's new worker to start and build one object.
    try (ManifestBuilder builder =
        new ManifestBuilder(
            BuildLimits.oneShot().withTimeout(Duration.ofSeconds(1)), BuildSandbox.forUser(dir))) {
      BuildError error =
          assertTimeoutPreemptively(
              Duration.ofSeconds(30), () -> error(builder.build(dir, "slow", BuildOptions.none())));
      assertEquals(BuildErrorKind.LIMIT_EXCEEDED, error.kind());
      assertEquals("the build did not finish within 1s and was stopped", error.message());
      assertStillBuilds(builder, dir);
    }
  }

  @Test
  void aBuildPastItsMemoryIsStoppedAndTheNextOneRuns() throws Exception {
    fixture(
        Map.of(
            "big/kustomization.yaml",
            "configMapGenerator: [{name: big, files: [big.txt]}]\n",
            "big/big.txt",
            "x".repeat(64 * 1024 * 1024)));
    try (ManifestBuilder builder =
        new ManifestBuilder(
            BuildLimits.oneShot().withMaxMemoryBytes(64L << 20), BuildSandbox.forUser(dir))) {
      BuildError error = error(builder.build(dir, "big", BuildOptions.none()));
      assertEquals(BuildErrorKind.LIMIT_EXCEEDED, error.kind(), error.message());
      assertEquals("the build needed more than 64 MiB of memory and was stopped", error.message());
      assertStillBuilds(builder, dir);
    }
  }

  @Test
  void deeplyNestedYamlFailsWithoutWedgingTheWorker() throws Exception {
    fixture(
        Map.of(
            "deep/cm.yaml",
            CONFIG_MAP.formatted("deep") + "data: {v: " + "[".repeat(200_000) + "}\n"));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      BuildError error =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60), () -> error(builder.build(dir, "deep", BuildOptions.none())));
      assertFalse(
          error.message().contains("\tat ") || error.message().contains("goroutine"),
          error.message());
      assertStillBuilds(builder, dir);
    }
  }

  @Test
  void anObjectNestedDeeperThanTheEngineReadsIsAnInvalidObject() throws Exception {
    fixture(
        Map.of(
            "nested/w.yaml",
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
                + "spec: {x: "
                + "[".repeat(5000)
                + "]".repeat(5000)
                + "}\n"));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      BuildError error = error(builder.build(dir, "nested", BuildOptions.none()));
      assertEquals(BuildErrorKind.INVALID_OBJECT, error.kind());
      assertEquals("an object nests more than 1000 levels deep", error.message());
      assertStillBuilds(builder, dir);
    }
  }

  @Test
  void aPatchTargetNameIsMatchedInLinearTime() throws Exception {
    // A pattern that takes a backtracking matcher exponential time on a name of 43 characters.
    String name = "a".repeat(42) + "b";
    fixture(
        Map.of(
            "app/kustomization.yaml",
            """
            resources: [cm.yaml]
            patches:
            - target: {kind: ConfigMap, name: "(.*a){20}"}
              patch: |
                - {op: add, path: /data/patched, value: "yes"}
            """,
            "app/cm.yaml",
            CONFIG_MAP.formatted(name) + "data: {a: b}\n"));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      List<?> objects =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60),
              () -> objects(builder.build(dir, "app", BuildOptions.none())));
      assertEquals(1, objects.size());
    }
  }

  @Test
  void deeplyNestedSubstitutionDefaultsFailWithoutWedgingTheWorker() throws Exception {
    String nested = "${a:=".repeat(3000) + "x" + "}".repeat(3000);
    fixture(
        Map.of("subst/cm.yaml", CONFIG_MAP.formatted("subst") + "data: {v: \"" + nested + "\"}\n"));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      BuildResult result =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60),
              () ->
                  builder.build(
                      dir,
                      "subst",
                      BuildOptions.none()
                          .withPostBuild(
                              new PostBuildVariables(Map.of("b", "1"), List.of(), false))));
      if (result instanceof BuildResult.Failed failed) {
        assertFalse(
            failed.error().message().contains("goroutine")
                || failed.error().message().contains("\tat "),
            failed.error().message());
      }
      assertStillBuilds(builder, dir);
    }
  }

  @Test
  void linksOutOfTheArtifactLeadNowhere() throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(
        outside.resolve("secret.yaml"),
        CONFIG_MAP.formatted("stolen") + "data: {token: t0ps3cret}\n");
    Path root = Files.createDirectories(dir.resolve("artifact"));
    new BuildFixture(root)
        .files(
            Map.of(
                "app/kustomization.yaml", "resources: [cm.yaml, stolen.yaml]\n",
                "app/cm.yaml", CONFIG_MAP.formatted("own"),
                "plain/cm.yaml", CONFIG_MAP.formatted("own")));
    Files.createSymbolicLink(root.resolve("app/stolen.yaml"), outside.resolve("secret.yaml"));
    Files.createSymbolicLink(
        root.resolve("plain/stolen.yaml"), Path.of("../../outside/secret.yaml"));
    Files.createSymbolicLink(root.resolve("plain/etc.yaml"), Path.of("/etc/hostname"));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      BuildError error = error(builder.build(root, "app", BuildOptions.none()));
      assertTrue(error.message().contains("stolen.yaml"), error.message());
      assertFalse(error.message().contains("t0ps3cret"), error.message());
      assertEquals(
          List.of("own"),
          objects(builder.build(root, "plain", BuildOptions.none())).stream()
              .map(o -> o.getMetadata().getName())
              .toList());
    }
  }

  @Test
  void parentReferencesStopAtTheArtifactRoot() throws Exception {
    Path root = Files.createDirectories(dir.resolve("artifact"));
    Files.writeString(dir.resolve("outside.yaml"), CONFIG_MAP.formatted("outside"));
    new BuildFixture(root)
        .files(
            Map.of(
                "app/kustomization.yaml",
                "resources: [../../outside.yaml]\n",
                "plain/cm.yaml",
                CONFIG_MAP.formatted("own")));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      BuildError error = error(builder.build(root, "app", BuildOptions.none()));
      assertEquals(BuildErrorKind.KUSTOMIZE, error.kind());
      assertTrue(error.message().contains("outside.yaml"), error.message());
      // As Flux joins spec.path to the artifact: ".." never climbs above the root.
      assertEquals(
          "own",
          objects(builder.build(root, "../../plain", BuildOptions.none()))
              .get(0)
              .getMetadata()
              .getName());
    }
  }

  /** Flux's artifacts hold no symbolic links; a build sees none either. */
  @Test
  void linksInsideTheArtifactAreLeftOutAsByFluxAndLoopsEnd() throws Exception {
    Path root = Files.createDirectories(dir.resolve("artifact"));
    new BuildFixture(root)
        .files(
            Map.of(
                "shared/base/kustomization.yaml",
                "resources: [cm.yaml]\n",
                "shared/base/cm.yaml",
                CONFIG_MAP.formatted("shared"),
                "app/kustomization.yaml",
                "namePrefix: app-\nresources: [base]\n",
                "plain/sub/cm.yaml",
                CONFIG_MAP.formatted("looped")));
    Files.createSymbolicLink(root.resolve("app/base"), Path.of("../shared/base"));
    Files.createSymbolicLink(root.resolve("plain/sub/a"), Path.of("."));
    Files.createSymbolicLink(root.resolve("plain/sub/b"), Path.of("."));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      BuildError linked = error(builder.build(root, "app", BuildOptions.none()));
      assertTrue(linked.message().contains("app/base"), linked.message());
      assertEquals(
          1,
          assertTimeoutPreemptively(
                  Duration.ofSeconds(30),
                  () -> objects(builder.build(root, "plain", BuildOptions.none())))
              .size());
    }
  }

  @Test
  void theArtifactIsNeverWritten() throws Exception {
    fixture(Map.of("plain/cm.yaml", CONFIG_MAP.formatted("c")));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      objects(builder.build(dir, "plain", BuildOptions.none().withTargetNamespace("x")));
    }
    try (var files = Files.list(dir.resolve("plain"))) {
      assertEquals(List.of("cm.yaml"), files.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void anArtifactOutsideTheSandboxIsRefused() throws Exception {
    Path inside = Files.createDirectories(dir.resolve("inside"));
    Path outside = Files.createDirectories(dir.resolve("outside"));
    new BuildFixture(outside).files(Map.of("app/cm.yaml", CONFIG_MAP.formatted("c")));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(inside))) {
      BuildError error = error(builder.build(outside, "app", BuildOptions.none()));
      assertEquals(BuildErrorKind.ARTIFACT, error.kind());
      assertEquals("the artifact is outside the directory builds may read", error.message());
    }
  }

  @Test
  void anOutputLargerThanTheEngineReadsEndsTheBuild() throws Exception {
    fixture(
        Map.of(
            "app/cm.yaml", CONFIG_MAP.formatted("c") + "data: {v: " + "x".repeat(3 << 20) + "}\n"));
    BuildLimits limits = BuildLimits.oneShot();
    BuildLimits small = limits.withAnswerRoomBytes(AnswerBudget.heldBytes(2 << 20));
    try (ManifestBuilder builder = new ManifestBuilder(small, BuildSandbox.forUser(dir))) {
      BuildError error = error(builder.build(dir, "app", BuildOptions.none()));
      assertEquals(BuildErrorKind.LIMIT_EXCEEDED, error.kind());
      assertEquals("the build's output is larger than 2 MiB", error.message());
      assertStillBuilds(builder, dir);
    }
  }

  /**
   * Builds at once share one room for their results in the JVM: with room for one result only,
   * answers wait for each other instead of filling the heap together, and every one arrives once
   * the result before it is closed (its apply done).
   */
  @Test
  void buildsAtOnceShareOneRoomForTheirAnswers() throws Exception {
    String large = CONFIG_MAP.formatted("c") + "data: {v: " + "x".repeat(3 << 20) + "}\n";
    fixture(Map.of("app/cm.yaml", large));
    long room = AnswerBudget.heldBytes(5 << 20);
    BuildLimits limits = BuildLimits.engine(2).withAnswerRoomBytes(room);
    ExecutorService callers = Executors.newFixedThreadPool(4);
    try (ManifestBuilder builder = new ManifestBuilder(limits, BuildSandbox.forUser(dir))) {
      List<Future<Integer>> results = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        BuildOptions options = BuildOptions.none().withTargetNamespace("ns-" + i);
        results.add(callers.submit(() -> appliedObjects(builder.build(dir, "app", options))));
      }
      for (Future<Integer> result : results) {
        assertEquals(1, result.get());
      }
      assertEquals(room, builder.answerRoomFree(), "every result gave its room back");
    } finally {
      callers.shutdownNow();
    }
  }

  /** What an apply does with a result: uses its objects, then closes it. */
  private static int appliedObjects(BuildResult result) {
    try (BuildResult.Built built = (BuildResult.Built) result) {
      return built.objects().size();
    }
  }

  /**
   * A result holds room for its objects until it is closed, after its apply: the next build, and a
   * kept answer read again, wait for it and then fail saying so; once it is closed they build.
   */
  @Test
  void aResultHoldsRoomForItsObjectsUntilItIsClosed() throws Exception {
    String large = CONFIG_MAP.formatted("c") + "data: {v: " + "x".repeat(3 << 20) + "}\n";
    fixture(Map.of("app/cm.yaml", large));
    long room = AnswerBudget.heldBytes(5 << 20);
    BuildLimits limits =
        BuildLimits.engine(1).withAnswerRoomBytes(room).withTimeout(Duration.ofSeconds(5));
    try (ManifestBuilder builder = new ManifestBuilder(limits, BuildSandbox.forUser(dir))) {
      BuildResult.Built first =
          (BuildResult.Built) builder.build(dir, "sha256:one", "app", BuildOptions.none());
      assertTrue(
          builder.answerRoomFree() <= room - AnswerBudget.heldBytes(3 << 20),
          "the result holds room for its objects: " + builder.answerRoomFree());
      BuildOptions other = BuildOptions.none().withTargetNamespace("other");
      for (BuildResult waited :
          List.of(
              builder.build(dir, "app", other),
              builder.build(dir, "sha256:one", "app", BuildOptions.none()))) {
        BuildError error = error(waited);
        assertEquals(BuildErrorKind.LIMIT_EXCEEDED, error.kind());
        assertEquals(
            "build memory: the build's output (3.0 MiB, about 66.0 MiB once read) found no room"
                + " within 5s among the 110.0 MiB the results of all builds may hold at once until"
                + " their applies end; it is tried again",
            error.message());
      }
      first.close();
      first.close(); // a second close gives nothing back
      assertEquals(room, builder.answerRoomFree());
      assertEquals(1, appliedObjects(builder.build(dir, "app", other)));
      assertEquals(room, builder.answerRoomFree());
    }
  }

  /** A read of a FIFO would block forever; a device file is not the artifact's. */
  @Test
  void aFifoInTheTreeIsNotThere() throws Exception {
    fixture(Map.of("plain/cm.yaml", CONFIG_MAP.formatted("own")));
    Process mkfifo =
        new ProcessBuilder("mkfifo", dir.resolve("plain/pipe.yaml").toString()).start();
    assertEquals(0, mkfifo.waitFor());
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.oneShot(), BuildSandbox.forUser(dir))) {
      List<?> objects =
          assertTimeoutPreemptively(
              Duration.ofSeconds(30),
              () -> objects(builder.build(dir, "plain", BuildOptions.none())));
      assertEquals(1, objects.size());
    }
  }

  @Test
  void anAliasBombEndsWithinItsBounds() throws Exception {
    StringBuilder bomb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (char c = 'b'; c <= 'j'; c++) {
      char previous = (char) (c - 1);
      bomb.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        bomb.append(i == 0 ? "" : ",").append('*').append(previous);
      }
      bomb.append("]\n");
    }
    fixture(
        Map.of(
            "bomb/cm.yaml", CONFIG_MAP.formatted("bomb") + "data:\n" + bomb.toString().indent(2)));
    try (ManifestBuilder builder =
        new ManifestBuilder(
            BuildLimits.oneShot().withTimeout(Duration.ofSeconds(20)), BuildSandbox.forUser(dir))) {
      BuildError error =
          assertTimeoutPreemptively(
              Duration.ofSeconds(60), () -> error(builder.build(dir, "bomb", BuildOptions.none())));
      assertFalse(error.message().contains("lol"), error.message());
      assertStillBuilds(builder, dir);
    }
  }

  @Test
  void anUnchangedArtifactIsNotBuiltAgain() throws Exception {
    fixture(Map.of("app/cm.yaml", CONFIG_MAP.formatted("first")));
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.engine(1), BuildSandbox.forUser(dir))) {
      assertEquals(
          "first",
          objects(builder.build(dir, "sha256:1", "app", BuildOptions.none()))
              .get(0)
              .getMetadata()
              .getName());
      // The same digest means the same content: what was built (and copied) for it is kept.
      Files.writeString(dir.resolve("app/cm.yaml"), CONFIG_MAP.formatted("second"));
      assertEquals(
          "first",
          objects(builder.build(dir, "sha256:1", "app", BuildOptions.none()))
              .get(0)
              .getMetadata()
              .getName());
      assertEquals(
          "x",
          objects(
                  builder.build(
                      dir, "sha256:1", "app", BuildOptions.none().withTargetNamespace("x")))
              .get(0)
              .getMetadata()
              .getNamespace(),
          "other inputs, another build");
      assertEquals(
          "second",
          objects(builder.build(dir, "sha256:2", "app", BuildOptions.none()))
              .get(0)
              .getMetadata()
              .getName());
    }
  }

  @Test
  void buildsRunConcurrentlyOnSeparateWorkers() throws Exception {
    fixture(Map.of("app/cm.yaml", CONFIG_MAP.formatted("c")));
    ExecutorService callers = Executors.newFixedThreadPool(4);
    try (ManifestBuilder builder =
        new ManifestBuilder(BuildLimits.engine(2), BuildSandbox.forUser(dir))) {
      List<Future<BuildResult>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        BuildOptions options = BuildOptions.none().withTargetNamespace("ns-" + i);
        results.add(callers.submit(() -> builder.build(dir, "sha256:c", "app", options)));
      }
      for (int i = 0; i < results.size(); i++) {
        assertEquals("ns-" + i, objects(results.get(i).get()).get(0).getMetadata().getNamespace());
      }
    } finally {
      callers.shutdownNow();
    }
  }
}
