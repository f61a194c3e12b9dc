package dev.capstan.applier.kustomize;

import static dev.capstan.applier.kustomize.BuildFixture.objects;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No worker before builds are expected; a second worker starts only for a build that waited too
 * long for the first.
 */
class WorkerPoolGrowthTest {

  private static final BuildLimits TWO_WORKERS = BuildLimits.oneShot().withWorkers(2);

  @TempDir Path dir;

  @Test
  void noWorkerRunsUntilBuildsAreExpectedAndThenOneAheadOfThem() throws Exception {
    try (ManifestBuilder builder =
        new ManifestBuilder(TWO_WORKERS, BuildSandbox.forUser(dir), Duration.ofSeconds(30))) {
      assertEquals(0, builder.workersRunning(), "workers running before any build is expected");

      builder.expectBuilds();
      builder.expectBuilds(); // each Kustomization's reconcile says so: one worker still

      await().atMost(Duration.ofSeconds(30)).until(() -> builder.workersRunning() == 1);
      Thread.sleep(200); // a second warm-up would have started by now
      assertEquals(1, builder.workersRunning(), "workers running");
    }
  }

  @Test
  void buildsThatFindTheWorkerBusyWaitForItInsteadOfStartingAnother() throws Exception {
    new BuildFixture(dir).files(configMaps("app", 3));
    try (ManifestBuilder builder =
        new ManifestBuilder(TWO_WORKERS, BuildSandbox.forUser(dir), Duration.ofSeconds(30))) {
      assertEquals(3, objects(builder.build(dir, "app", BuildOptions.none())).size());
      List<Integer> sizes = concurrently(8, () -> builderRun(builder, "app"));
      sizes.forEach(size -> assertEquals(3, size));
      assertEquals(1, builder.workersRunning(), "workers running");
    }
  }

  @Test
  void aBuildThatWaitedLongerThanAllowedGetsAWorkerOfItsOwn() throws Exception {
    // large enough that two builds started together overlap
    new BuildFixture(dir).files(configMaps("big", 4000));
    try (ManifestBuilder builder =
        new ManifestBuilder(TWO_WORKERS, BuildSandbox.forUser(dir), Duration.ZERO)) {
      assertEquals(4000, objects(builder.build(dir, "big", BuildOptions.none())).size());
      List<Integer> sizes = concurrently(2, () -> builderRun(builder, "big"));
      sizes.forEach(size -> assertEquals(4000, size));
      assertEquals(2, builder.workersRunning(), "workers running");
    }
  }

  private int builderRun(ManifestBuilder builder, String path) {
    return objects(builder.build(dir, path, BuildOptions.none())).size();
  }

  private static Map<String, String> configMaps(String path, int count) {
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i < count; i++) {
      yaml.append("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-")
          .append(i)
          .append("\ndata:\n  key: value\n---\n");
    }
    return Map.of(path + "/objects.yaml", yaml.toString());
  }

  /** Runs {@code call} on {@code threads} threads released together; their answers. */
  private static <T> List<T> concurrently(int threads, Callable<T> call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return call.call();
                }));
      }
      start.countDown();
      List<T> answers = new ArrayList<>();
      for (Future<T> future : futures) {
        answers.add(future.get());
      }
      return answers;
    } finally {
      pool.shutdownNow();
    }
  }
}
