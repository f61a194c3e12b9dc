package dev.capstan.applier.kustomize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AnswerBudgetTest {
  private static long in(Duration wait) {
    return System.nanoTime() + wait.toNanos();
  }

  @Test
  void answersTogetherNeverHoldMoreThanTheBudget() throws InterruptedException {
    AnswerBudget budget = new AnswerBudget(4 << 20);
    assertTrue(budget.take(3 << 20, in(Duration.ZERO)));
    assertFalse(budget.take(2 << 20, in(Duration.ofMillis(50))), "waits, then gives up");
    assertTrue(budget.take(1 << 20, in(Duration.ZERO)));
    budget.give(3 << 20);
    assertTrue(budget.take(2 << 20, in(Duration.ZERO)));
    assertEquals(1 << 20, budget.availableBytes());
  }

  @Test
  void anAnswerLargerThanTheBudgetNeverFits() throws InterruptedException {
    AnswerBudget budget = new AnswerBudget(1 << 20);
    assertFalse(budget.take((1 << 20) + 1024, in(Duration.ofSeconds(5))));
    assertEquals(1 << 20, budget.availableBytes(), "nothing was taken");
  }

  @Test
  void aWaitingAnswerGetsTheRoomGivenBack() throws Exception {
    AnswerBudget budget = new AnswerBudget(2 << 20);
    assertTrue(budget.take(2 << 20, in(Duration.ZERO)));
    Thread giver =
        new Thread(
            () -> {
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                return;
              }
              budget.give(2 << 20);
            });
    giver.start();
    assertTrue(budget.take(1 << 20, in(Duration.ofSeconds(10))));
    giver.join();
  }
}
