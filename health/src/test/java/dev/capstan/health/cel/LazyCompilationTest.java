package dev.capstan.health.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.health.Fixtures;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.ResourceStatus;
import dev.capstan.health.status.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Built-in entries compile on first use of their kind, once, from any number of threads. */
class LazyCompilationTest {
  private static final String LIBRARY =
      """
      - {apiVersion: example.com/*, kind: Good, current: "status.ready == true"}
      - {apiVersion: example.com/*, kind: Broken, current: "status.ready =="}
      """;

  @Test
  void anEntryIsCompiledOnlyWhenItsKindIsEvaluated() {
    BuiltinLibrary library = BuiltinLibrary.deferred(LIBRARY);
    assertTrue(library.covers("example.com/v1", "Broken"), "lookup compiles nothing");
    HealthEvaluator evaluator = HealthEvaluator.create(List.of(), library, Fixtures.CLOCK);

    ResourceStatus good =
        evaluator.status(
            Fixtures.yaml("{apiVersion: example.com/v1, kind: Good, status: {ready: true}}"));
    assertEquals(Status.Current, good.status(), good::message);

    ResourceStatus broken =
        evaluator.status(
            Fixtures.yaml("{apiVersion: example.com/v1, kind: Broken, status: {ready: true}}"));
    assertEquals(Status.Unknown, broken.status());
    assertEquals("InvalidHealthCheck", broken.reason());
    assertTrue(
        broken.message().contains("example.com/*/Broken") && broken.message().contains("[1]"),
        broken::message);

    InvalidHealthCheckException all =
        assertThrows(InvalidHealthCheckException.class, library::compileEveryEntry);
    assertTrue(all.getMessage().contains("'status.ready =='"), all::getMessage);
    assertThrows(
        InvalidHealthCheckException.class,
        () -> BuiltinLibrary.fromYaml(LIBRARY),
        "fromYaml compiles eagerly");
  }

  @Test
  void concurrentFirstUsesCompileOnceAndShareTheResult() throws Exception {
    AtomicInteger compilations = new AtomicInteger();
    CelHealthCheck compiled =
        BuiltinLibrary.fromYaml("- {apiVersion: example.com/*, kind: Good, current: 'true'}")
            .registry()
            .find("example.com/v1", "Good")
            .get();
    LazyHealthCheck lazy =
        new LazyHealthCheck(
            compiled.entry(),
            () -> {
              compilations.incrementAndGet();
              return compiled;
            });
    int threads = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<CelHealthCheck>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return lazy.get();
                }));
      }
      start.countDown();
      for (Future<CelHealthCheck> result : results) {
        assertSame(compiled, result.get(10, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(1, compilations.get());
  }

  @Test
  void aCompileErrorIsKeptAndReportedOnEveryUse() {
    AtomicInteger compilations = new AtomicInteger();
    LazyHealthCheck lazy =
        new LazyHealthCheck(
            new HealthCheckExpr("example.com/*", "Broken", "x", "", ""),
            () -> {
              compilations.incrementAndGet();
              throw new InvalidHealthCheckException("example.com/*/Broken: does not compile");
            });
    assertThrows(InvalidHealthCheckException.class, lazy::get);
    InvalidHealthCheckException again = assertThrows(InvalidHealthCheckException.class, lazy::get);
    assertEquals("example.com/*/Broken: does not compile", again.getMessage());
    assertEquals(1, compilations.get());
  }
}
