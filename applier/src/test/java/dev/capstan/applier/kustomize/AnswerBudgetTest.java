package dev.capstan.applier.kustomize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class AnswerBudgetTest {
  /** An answer whose objects take 1 MiB of heap, as the budget counts them. */
  private static final long MIB_HELD = (1 << 20) / AnswerBudget.PARSED_FACTOR;

  private static long in(Duration wait) {
    return System.nanoTime() + wait.toNanos();
  }

  @Test
  void anAnswerIsChargedForTheObjectsReadFromIt() throws InterruptedException {
    AnswerBudget budget = new AnswerBudget(AnswerBudget.heldBytes(1 << 20));
    assertFalse(
        budget.take((1 << 20) + 1024, in(Duration.ZERO)),
        "an answer of a 22nd of the room's bytes, and a little more, does not fit once read");
    assertTrue(budget.take(1 << 20, in(Duration.ZERO)));
    assertEquals(0, budget.availableBytes());
  }

  @Test
  void answersTogetherNeverHoldMoreThanTheBudget() throws InterruptedException {
    AnswerBudget budget = new AnswerBudget(4 << 20);
    assertTrue(budget.take(3 * MIB_HELD, in(Duration.ZERO)));
    assertFalse(budget.take(2 * MIB_HELD, in(Duration.ofMillis(50))), "waits, then gives up");
    assertTrue(budget.take(MIB_HELD, in(Duration.ZERO)));
    budget.give(3 * MIB_HELD);
    assertTrue(budget.take(2 * MIB_HELD, in(Duration.ZERO)));
    assertEquals(1 << 20, budget.availableBytes());
  }

  @Test
  void anAnswerLargerThanTheBudgetNeverFits() throws InterruptedException {
    AnswerBudget budget = new AnswerBudget(1 << 20);
    assertFalse(budget.take(MIB_HELD + 1024, in(Duration.ofSeconds(5))));
    assertEquals(1 << 20, budget.availableBytes(), "nothing was taken");
  }

  @Test
  void aWaitingAnswerGetsTheRoomGivenBack() throws Exception {
    AnswerBudget budget = new AnswerBudget(2 << 20);
    assertTrue(budget.take(2 * MIB_HELD, in(Duration.ZERO)));
    Thread giver =
        new Thread(
            () -> {
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                return;
              }
              budget.give(2 * MIB_HELD);
            });
    giver.start();
    assertTrue(budget.take(MIB_HELD, in(Duration.ofSeconds(10))));
    giver.join();
  }

  /**
   * A large answer that waits is not passed by a small one that came later, though the room free
   * would hold the small one: tenant B's answer waits behind tenant A's.
   */
  @Test
  void aLaterSmallAnswerDoesNotPassAWaitingLargeOne() throws Exception {
    AnswerBudget budget = new AnswerBudget(2 << 20);
    assertTrue(budget.take(2 * MIB_HELD, in(Duration.ZERO)));
    Thread tenantA = waiter(budget, 2 * MIB_HELD, "a", new CopyOnWriteArrayList<>());
    await(() -> budget.waiting() == 1);
    budget.give(MIB_HELD); // half free: not enough for A
    assertFalse(
        budget.take(1, in(Duration.ofMillis(200))), "B's small answer queues behind A's large one");
    budget.give(MIB_HELD);
    tenantA.join(10_000);
    assertEquals(0, budget.availableBytes(), "A got the whole room");
  }

  /** Answers that wait get the room in the order they came, whoever's builds they are. */
  @Test
  void waitingAnswersGetTheRoomInTheOrderTheyCame() throws Exception {
    AnswerBudget budget = new AnswerBudget(1 << 20);
    assertTrue(budget.take(MIB_HELD, in(Duration.ZERO)));
    List<String> order = new CopyOnWriteArrayList<>();
    List<String> came = List.of("a-1", "a-2", "b-1", "a-3", "c-1");
    for (int i = 0; i < came.size(); i++) {
      waiter(budget, MIB_HELD, came.get(i), order);
      int queued = i + 1;
      await(() -> budget.waiting() == queued); // the next comes once this one waits
    }
    budget.give(MIB_HELD);
    await(() -> order.size() == came.size());
    assertEquals(came, order);
  }

  /** A thread that takes room for an answer, notes its name, and gives the room back. */
  private static Thread waiter(AnswerBudget budget, long bytes, String name, List<String> order) {
    Thread thread =
        new Thread(
            () -> {
              try {
                if (budget.take(bytes, in(Duration.ofSeconds(30)))) {
                  order.add(name);
                  if (!name.equals("a")) {
                    budget.give(bytes);
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    thread.start();
    return thread;
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = in(Duration.ofSeconds(10));
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "in time");
      Thread.sleep(5);
    }
  }
}
