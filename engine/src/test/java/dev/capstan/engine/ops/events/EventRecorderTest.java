package dev.capstan.engine.ops.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class EventRecorderTest {

  /** Keeps what would be written; can pretend the server lost an Event or is down. */
  static final class MemorySink implements EventSink {
    final List<String> calls = new ArrayList<>();
    boolean serverLostEvents;
    boolean serverDown;

    @Override
    public synchronized void create(CorrelatedEvent event, String component) {
      fail();
      calls.add(
          "create "
              + event.name()
              + " "
              + event.count()
              + " "
              + event.message()
              + " by "
              + component);
    }

    @Override
    public synchronized boolean update(CorrelatedEvent event) {
      fail();
      if (serverLostEvents) {
        return false;
      }
      calls.add("update " + event.name() + " " + event.count());
      return true;
    }

    private void fail() {
      if (serverDown) {
        throw new KubernetesClientException("connection refused");
      }
    }
  }

  private final MemorySink sink = new MemorySink();
  private final ExecutorService writer = Executors.newSingleThreadExecutor();
  private final EventRecorder recorder =
      new EventRecorder(
          sink,
          new EventCorrelator(
              new MutableClock(Instant.parse("2026-01-01T00:00:00Z")),
              EventCorrelator.Limits.defaults()),
          writer,
          "capstan",
          new DroppedEvents(Clock.systemUTC(), Duration.ofSeconds(30)));

  static Kustomization kustomization() {
    Kustomization ks = new Kustomization();
    ks.setMetadata(
        new ObjectMetaBuilder().withName("web").withNamespace("apps").withUid("u1").build());
    return ks;
  }

  private void drain() throws InterruptedException {
    writer.submit(() -> {});
    writer.shutdown();
    assertTrue(writer.awaitTermination(5, TimeUnit.SECONDS));
  }

  @Test
  void createsThenUpdatesAndSanitizes() throws Exception {
    recorder.record(
        kustomization(), EventReason.of(Reason.ARTIFACT_FAILED), "cannot fetch https://u:pw@h/r");
    recorder.record(
        kustomization(), EventReason.of(Reason.ARTIFACT_FAILED), "cannot fetch https://u:pw@h/r");
    drain();
    assertEquals(2, sink.calls.size(), sink.calls::toString);
    assertTrue(
        sink.calls.get(0).matches("create web\\.[0-9a-f]+ 1 cannot fetch https://h/r by capstan"),
        sink.calls.get(0));
    assertTrue(sink.calls.get(1).matches("update web\\.[0-9a-f]+ 2"), sink.calls.get(1));
  }

  @Test
  void anEventTheServerNoLongerHasIsCreatedAgain() throws Exception {
    recorder.record(kustomization(), EventReason.PRUNED, "pruned ConfigMap/apps/old");
    writer.submit(() -> sink.serverLostEvents = true).get();
    recorder.record(kustomization(), EventReason.PRUNED, "pruned ConfigMap/apps/old");
    drain();
    assertEquals(2, sink.calls.size(), sink.calls::toString);
    assertTrue(sink.calls.get(1).startsWith("create "), sink.calls.get(1));
  }

  @Test
  void anUnreachableServerNeitherThrowsNorStopsLaterEvents() throws Exception {
    sink.serverDown = true;
    recorder.record(kustomization(), EventReason.of(Reason.APPLY_FAILED), "one");
    writer.submit(() -> sink.serverDown = false).get();
    recorder.record(kustomization(), EventReason.of(Reason.APPLY_FAILED), "two");
    drain();
    assertEquals(1, sink.calls.size(), sink.calls::toString);
    assertTrue(sink.calls.get(0).contains(" two "), sink.calls.get(0));
  }

  @Test
  void anObjectWithoutANameIsABugOfTheCaller() {
    IllegalArgumentException e =
        Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> recorder.record(new Kustomization(), EventReason.APPLIED, "x"));
    assertTrue(e.getMessage().contains("metadata.name"));
  }
}
