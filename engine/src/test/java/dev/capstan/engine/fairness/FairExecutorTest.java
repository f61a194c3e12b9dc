package dev.capstan.engine.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FairExecutorTest {

  /** A task that knows its lane, so the executor's lane function is a plain read. */
  private interface Laned extends Runnable {
    String lane();
  }

  private record Task(String lane, String name, List<String> ran) implements Laned {
    @Override
    public void run() {
      ran.add(name);
    }
  }

  private record Counted(String lane, AtomicInteger done) implements Laned {
    @Override
    public void run() {
      done.incrementAndGet();
    }
  }

  private static final Function<Runnable, String> LANE =
      task -> task instanceof Laned t ? t.lane() : "";

  private final List<String> ran = Collections.synchronizedList(new ArrayList<>());
  private final CountDownLatch release = new CountDownLatch(1);
  private FairExecutor executor;

  @AfterEach
  void stop() {
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  /** One thread, held until {@link #release}: what is queued meanwhile runs in the order kept. */
  private FairExecutor heldSingleThread() throws InterruptedException {
    executor = FairExecutor.create(1, "fair-test", LANE);
    CountDownLatch holding = new CountDownLatch(1);
    executor.execute(
        () -> {
          holding.countDown();
          awaitRelease();
        });
    assertTrue(holding.await(10, TimeUnit.SECONDS));
    return executor;
  }

  private void awaitRelease() {
    try {
      release.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void runAll() throws InterruptedException {
    release.countDown();
    executor.shutdown();
    assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
  }

  @Test
  void tellsHowLongEachTaskWaitedInItsLane() throws InterruptedException {
    List<String> waited = Collections.synchronizedList(new ArrayList<>());
    heldSingleThread()
        .onWaited(
            (lane, wait) -> {
              if (wait.toMillis() >= 150) {
                waited.add(lane);
              }
            });
    executor.execute(new Task("a", "a1", ran));
    executor.execute(new Task("b", "b1", ran));
    Thread.sleep(200); // both wait behind the held task

    runAll();

    assertEquals(List.of("a1", "b1"), ran);
    assertEquals(List.of("a", "b"), waited);
  }

  @Test
  void aFloodOfOneNamespaceDelaysAnotherByAtMostOneTaskPerOtherNamespace()
      throws InterruptedException {
    heldSingleThread();
    for (int i = 0; i < 1000; i++) {
      executor.execute(new Task("tenant-a", "a" + i, ran));
    }
    executor.execute(new Task("tenant-b", "b", ran));
    executor.execute(new Task("tenant-c", "c", ran));

    runAll();

    assertEquals(1002, ran.size());
    // Behind tenant-a's oldest task only: one task of the one other namespace queued.
    assertEquals(1, ran.indexOf("b"));
    assertEquals(2, ran.indexOf("c"));
    assertEquals(List.of("a0", "b", "c", "a1"), ran.subList(0, 4));
  }

  @Test
  void aSourcesTaskRunsBeforeTheKustomizationsQueuedInItsNamespace() throws InterruptedException {
    // The fetch a push asked for would otherwise wait behind every Kustomization its last
    // artifact woke, and those build a revision it is about to replace.
    executor =
        FairExecutor.create(
            1, "fair-test", LANE, task -> task instanceof Task t && t.name().startsWith("src"));
    CountDownLatch holding = new CountDownLatch(1);
    executor.execute(
        () -> {
          holding.countDown();
          awaitRelease();
        });
    assertTrue(holding.await(10, TimeUnit.SECONDS));
    for (int i = 0; i < 100; i++) {
      executor.execute(new Task("tenant-a", "k" + i, ran));
    }
    executor.execute(new Task("tenant-a", "src-repo", ran));
    executor.execute(new Task("tenant-a", "src-chart", ran));
    executor.execute(new Task("tenant-b", "k-b", ran));

    runAll();

    // the lane's sources and the others take turns, so neither starves the other
    assertEquals(List.of("src-repo", "k-b", "k0", "src-chart", "k1"), ran.subList(0, 5));
    assertEquals(names("k", 100), ran.stream().filter(n -> n.matches("k\\d+")).toList());
  }

  @Test
  void tasksOfOneNamespaceRunInTheOrderQueued() throws InterruptedException {
    heldSingleThread();
    for (int i = 0; i < 50; i++) {
      executor.execute(new Task("tenant-a", "a" + i, ran));
      executor.execute(new Task("tenant-b", "b" + i, ran));
    }

    runAll();

    List<String> a = ran.stream().filter(n -> n.startsWith("a")).toList();
    List<String> b = ran.stream().filter(n -> n.startsWith("b")).toList();
    assertEquals(names("a", 50), a);
    assertEquals(names("b", 50), b);
    // Alternating: the lanes take turns.
    assertEquals(List.of("a0", "b0", "a1", "b1"), ran.subList(0, 4));
  }

  @Test
  void noTaskIsLostWithManyThreadsAndSubmitters() throws InterruptedException {
    executor = FairExecutor.create(4, "fair-test", LANE);
    AtomicInteger done = new AtomicInteger();
    List<Thread> submitters = new ArrayList<>();
    for (int s = 0; s < 4; s++) {
      submitters.add(new Thread(() -> submit(2500, done)));
    }
    submitters.forEach(Thread::start);
    for (Thread thread : submitters) {
      thread.join();
    }
    executor.shutdown();
    assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    assertEquals(10_000, done.get());
  }

  private void submit(int count, AtomicInteger done) {
    for (int i = 0; i < count; i++) {
      executor.execute(new Counted("ns-" + (i % 10), done));
    }
  }

  @Test
  void aFailingTaskLeavesItsThreadServing() throws InterruptedException {
    executor = FairExecutor.create(1, "fair-test", LANE);
    executor.execute(
        () -> {
          throw new IllegalStateException("boom");
        });
    executor.execute(new Task("tenant-a", "after", ran));
    executor.shutdown();
    assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    assertEquals(List.of("after"), ran);
  }

  @Test
  void shutdownRunsWhatIsQueuedAndRefusesMore() throws InterruptedException {
    heldSingleThread();
    executor.execute(new Task("tenant-a", "queued", ran));
    executor.shutdown();

    assertThrows(
        RejectedExecutionException.class,
        () -> executor.execute(new Task("tenant-a", "late", ran)));
    assertFalse(executor.isTerminated());
    release.countDown();
    assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    assertEquals(List.of("queued"), ran);
    assertTrue(executor.isTerminated());
  }

  @Test
  void shutdownNowHandsBackEveryTaskNotStarted() throws InterruptedException {
    heldSingleThread();
    for (int i = 0; i < 10; i++) {
      executor.execute(new Task(i % 2 == 0 ? "tenant-a" : "tenant-b", "t" + i, ran));
    }

    List<Runnable> left = executor.shutdownNow();

    assertEquals(10, left.size());
    assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    assertTrue(ran.isEmpty());
    assertEquals(0, executor.queued());
  }

  @Test
  void anExecutorNeverUsedHoldsNoThreadAndTerminatesAtOnce() throws InterruptedException {
    executor = FairExecutor.create(3, "fair-test-unused", LANE);
    executor.shutdown();
    assertTrue(executor.awaitTermination(0, TimeUnit.SECONDS));
    assertTrue(
        Thread.getAllStackTraces().keySet().stream()
            .noneMatch(t -> t.getName().startsWith("fair-test-unused")));
  }

  private static List<String> names(String prefix, int count) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      names.add(prefix + i);
    }
    return names;
  }
}
