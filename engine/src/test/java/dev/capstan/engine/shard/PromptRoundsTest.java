package dev.capstan.engine.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PromptRoundsTest {
  /** A timer whose tasks run when the test says, with the delays they were given. */
  private static final class ManualTimer implements PromptRounds.Timer {
    private record Task(long delayNanos, Runnable run, boolean[] cancelled) {}

    private final List<Task> tasks = new ArrayList<>();

    @Override
    public Runnable after(long delayNanos, Runnable task) {
      Task t = new Task(delayNanos, task, new boolean[1]);
      tasks.add(t);
      return () -> t.cancelled()[0] = true;
    }

    List<Long> waiting() {
      return tasks.stream().filter(t -> !t.cancelled()[0]).map(Task::delayNanos).toList();
    }

    void runAll() {
      List<Task> due = new ArrayList<>(tasks);
      tasks.clear();
      due.stream().filter(t -> !t.cancelled()[0]).forEach(t -> t.run().run());
    }
  }

  private final ManualTimer timer = new ManualTimer();
  private final AtomicInteger rounds = new AtomicInteger();
  private final PromptRounds prompt = new PromptRounds(timer, rounds::incrementAndGet);

  @Test
  void aReleasedLeaseObservedTriggersOneRoundSoon() {
    LeaseEvents events =
        new LeaseEvents(
            "me",
            "capstan-shards-g",
            new LeaseEvents.Listener() {
              @Override
              public void renewed(ReplicaLeases.Seen lease) {}

              @Override
              public void changed() {
                prompt.soon();
              }
            });
    // a graceful stop: its claims removed from the map, then its Lease deleted
    events.onUpdate(map("1", "gone x"), map("2", "gone y"));
    events.onDelete(
        new LeaseBuilder()
            .withNewMetadata()
            .withName("capstan-replica-gone")
            .withResourceVersion("9")
            .endMetadata()
            .withNewSpec()
            .withHolderIdentity("gone")
            .endSpec()
            .build(),
        false);

    assertEquals(List.of(PromptRounds.SETTLE_NANOS), timer.waiting());
    assertEquals(0, rounds.get());
    timer.runAll();
    assertEquals(1, rounds.get());
    assertEquals(Duration.ofMillis(150).toNanos(), PromptRounds.SETTLE_NANOS);
  }

  @Test
  void aChangeAfterTheRoundStartedAsksForAnother() {
    AtomicReference<PromptRounds> self = new AtomicReference<>();
    self.set(
        new PromptRounds(
            timer,
            () -> {
              if (rounds.incrementAndGet() == 1) {
                self.get().soon(); // a write that lands while the first round reads
              }
            }));
    self.get().soon();
    self.get().soon(); // merged with the first
    assertEquals(1, timer.waiting().size());

    timer.runAll();
    assertEquals(List.of(PromptRounds.SETTLE_NANOS), timer.waiting());
    timer.runAll();
    assertEquals(2, rounds.get());
  }

  @Test
  void aRoundIsTimedForTheNextExpiryAndMovedWhenTheLeaseIsRenewed() {
    long now = 1_000;
    prompt.expiry(OptionalLong.of(now + seconds(8)), now);
    assertEquals(List.of(seconds(8) + PromptRounds.PAST_EXPIRY_NANOS), timer.waiting());

    prompt.expiry(OptionalLong.of(now + seconds(8)), now + seconds(1)); // unchanged: kept
    assertEquals(1, timer.waiting().size());

    // renewed: the expiry moves 2 s on, and the round with it
    prompt.expiry(OptionalLong.of(now + seconds(10)), now + seconds(2));
    assertEquals(List.of(seconds(8) + PromptRounds.PAST_EXPIRY_NANOS), timer.waiting());

    prompt.expiry(OptionalLong.empty(), now + seconds(3)); // nobody else is live
    assertEquals(List.of(), timer.waiting());
    timer.runAll();
    assertEquals(0, rounds.get());
  }

  @Test
  void anExpiryAlreadyPastRunsARoundRightAway() {
    prompt.expiry(OptionalLong.of(5), 10);

    assertEquals(List.of(PromptRounds.PAST_EXPIRY_NANOS), timer.waiting());
    timer.runAll();
    assertEquals(1, rounds.get());
  }

  private static Lease map(String version, String written) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName("capstan-shards-g")
        .withResourceVersion(version)
        .addToAnnotations(ShardMap.WRITTEN, written)
        .endMetadata()
        .build();
  }

  private static long seconds(long s) {
    return Duration.ofSeconds(s).toNanos();
  }
}
