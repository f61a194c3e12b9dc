package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DriftCheckTest {
  private static final DriftCheck.Key KEY =
      new DriftCheck.Key("ns", "app", "main@sha1:" + "a".repeat(40), 1);
  private static final Drift RUNNING =
      Drift.of(Drift.State.RUNNING, KEY.revision(), "from", null, "running", "");

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private DriftCheck check;

  @AfterEach
  void stop() {
    check.close();
    timer.shutdownNow();
  }

  private DriftCheck check(DriftCheck.Computation computation, Duration timeout) {
    check =
        new DriftCheck(
            computation, Executors.newFixedThreadPool(2), timer, timeout, Clock.systemUTC());
    return check;
  }

  private static Drift done(String message) {
    return Drift.of(Drift.State.DONE, KEY.revision(), "from", null, message, "now");
  }

  private Drift awaitDone(DriftCheck.Key key) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> check.current(key, RUNNING).orElseThrow().state() != Drift.State.RUNNING);
    return check.current(key, RUNNING).orElseThrow();
  }

  @Test
  void anAnswerIsKeptPerRevisionUntilAskedAgain() {
    AtomicInteger runs = new AtomicInteger();
    check((key, deadline) -> done("run " + runs.incrementAndGet()), Duration.ofSeconds(10));
    assertTrue(check.current(KEY, RUNNING).isEmpty(), "nothing is computed before it is asked for");
    check.request(KEY, false, RUNNING);
    assertEquals("run 1", awaitDone(KEY).message());
    assertEquals("run 1", check.request(KEY, false, RUNNING).message(), "kept, not computed again");
    assertEquals(1, runs.get());
    check.request(KEY, true, RUNNING);
    assertEquals("run 2", awaitDone(KEY).message());
    DriftCheck.Key next = new DriftCheck.Key("ns", "app", "main@sha1:" + "b".repeat(40), 1);
    assertTrue(
        check.current(next, RUNNING).isEmpty(), "another revision is not answered by the kept one");
    check.request(next, false, RUNNING);
    assertEquals("run 3", awaitDone(next).message());
  }

  @Test
  void aComparisonPastItsDeadlineIsReportedTimedOutAndInterrupted() throws Exception {
    AtomicBoolean interrupted = new AtomicBoolean();
    CountDownLatch ended = new CountDownLatch(1);
    check(
        (key, deadline) -> {
          try {
            Thread.sleep(60_000);
          } catch (InterruptedException e) {
            interrupted.set(true);
          } finally {
            ended.countDown();
          }
          return done("late");
        },
        Duration.ofMillis(300));
    assertEquals(Drift.State.RUNNING, check.request(KEY, false, RUNNING).state());
    Drift answer = awaitDone(KEY);
    assertEquals(Drift.State.TIMED_OUT, answer.state());
    assertTrue(answer.message().startsWith("timed out after 0s"), answer.message());
    assertTrue(ended.await(5, TimeUnit.SECONDS));
    assertTrue(interrupted.get(), "the work was stopped");
    assertEquals(
        Drift.State.TIMED_OUT,
        check.current(KEY, RUNNING).orElseThrow().state(),
        "a late answer is dropped");
  }

  @Test
  void aRunningComparisonIsNotStartedTwiceAndAFailureIsOneLine() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger runs = new AtomicInteger();
    check(
        (key, deadline) -> {
          runs.incrementAndGet();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          throw new IllegalStateException("secret detail from Git");
        },
        Duration.ofSeconds(10));
    check.request(KEY, false, RUNNING);
    assertEquals(Drift.State.RUNNING, check.request(KEY, true, RUNNING).state());
    release.countDown();
    Drift answer = awaitDone(KEY);
    assertEquals(1, runs.get());
    assertEquals(Drift.State.FAILED, answer.state());
    assertEquals("the comparison failed: IllegalStateException", answer.message());
  }
}
