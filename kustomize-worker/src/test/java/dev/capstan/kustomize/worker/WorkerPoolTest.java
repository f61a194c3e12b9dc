package dev.capstan.kustomize.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pool both the build workers and the chart workers are, with the kustomize worker this build
 * made: lazy, keeping its workers, and stopping a worker its check refuses.
 */
class WorkerPoolTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MIB = 1024 * 1024;

  private static WorkerBinary binary;

  @TempDir Path root;
  private byte[] request;
  // a name of each test's own, so that no other test's pool stopping late is seen
  private final String thread = "capstan-pool-test-" + UUID.randomUUID();

  @BeforeAll
  static void unpack(@TempDir Path cache) {
    binary = WorkerBinary.forThisMachine(cache.resolve("worker"));
  }

  @BeforeEach
  void artifact() throws IOException {
    Path file = root.resolve("app/cm.yaml");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", StandardCharsets.UTF_8);
    request =
        JSON.writeValueAsBytes(
            Map.of("root", root.toRealPath().toString(), "path", "app", "output", "objects"));
  }

  private WorkerPool pool(Consumer<Hello> check) throws IOException {
    return pool(Duration.ZERO, check);
  }

  private WorkerPool pool(Duration growAfter, Consumer<Hello> check) throws IOException {
    return new WorkerPool(
        new WorkerPool.Spec(
            thread, 2, growAfter, () -> binary, root.toRealPath(), 256 * MIB, false, check));
  }

  private static String built(WorkerPool pool, byte[] request) throws Exception {
    byte[] answer = pool.call(request, Duration.ofSeconds(30), 64 * MIB, AnswerRoom.UNBOUNDED);
    JsonNode objects = JSON.readTree(answer);
    return objects.at("/objects/0/metadata/name").asText();
  }

  private boolean deadlineThreadRuns() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals(thread) && t.isAlive());
  }

  @Test
  void nothingRunsBeforeTheFirstRequestAndTheWorkerIsKept() throws Exception {
    try (WorkerPool pool = pool(hello -> {})) {
      assertEquals(0, pool.running());
      assertFalse(deadlineThreadRuns(), "a deadline thread before any request");
      assertEquals("a", built(pool, request));
      assertEquals("a", built(pool, request));
      assertEquals(1, pool.running(), "workers running");
    }
  }

  @Test
  void aWorkerTheCheckRefusesIsStoppedAndTheCheckSaysWhy() throws Exception {
    IllegalStateException refusal = new IllegalStateException("not this one");
    try (WorkerPool pool =
        pool(
            hello -> {
              throw refusal;
            })) {
      assertSame(refusal, assertThrows(IllegalStateException.class, () -> built(pool, request)));
      assertEquals(0, pool.running(), "workers running");
    }
  }

  @Test
  void aWarmUpStartsAWorkerOrSaysWhyNot() throws Exception {
    // a request waits for the worker warming up rather than start another
    try (WorkerPool pool = pool(Duration.ofSeconds(30), hello -> {})) {
      CompletableFuture<RuntimeException> failed = new CompletableFuture<>();
      pool.warmUp(failed::complete);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (pool.running() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(1, pool.running(), "workers running after the warm-up");
      assertEquals("a", built(pool, request));
      assertEquals(1, pool.running(), "the warmed-up worker served");
      assertFalse(failed.isDone());
    }
    IllegalStateException refusal = new IllegalStateException("not this one");
    try (WorkerPool pool =
        pool(
            hello -> {
              throw refusal;
            })) {
      CompletableFuture<RuntimeException> failed = new CompletableFuture<>();
      pool.warmUp(failed::complete);
      assertSame(refusal, failed.get(30, TimeUnit.SECONDS));
      assertEquals(0, pool.running(), "workers running");
    }
  }
}
