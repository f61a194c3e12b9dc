package dev.capstan.engine.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LanesTest {

  /** A task that says its name. */
  private record Named(String name) implements Runnable {
    @Override
    public void run() {}
  }

  private static List<String> names(List<Runnable> tasks) {
    return tasks.stream().map(t -> ((Named) t).name()).toList();
  }

  @Test
  void tasksToRunFirstGoAheadOfTheOthersQueuedBeforeThem() {
    Lanes lanes = new Lanes();
    lanes.add("a", new Named("ks1"), false);
    lanes.add("a", new Named("ks2"), false);
    lanes.add("a", new Named("git"), true);

    assertEquals(List.of("git", "ks1", "ks2"), names(lanes.drain()));
  }

  @Test
  void whileBothAreQueuedTheyTakeTurnsSoNeitherStarves() {
    Lanes lanes = new Lanes();
    for (int i = 1; i <= 3; i++) {
      lanes.add("a", new Named("ks" + i), false);
      lanes.add("a", new Named("git" + i), true);
    }

    assertEquals(List.of("git1", "ks1", "git2", "ks2", "git3", "ks3"), names(lanes.drain()));
  }

  @Test
  void aSourceQueuedAgainAfterEveryRunStillLetsTheOthersOfItsLaneRun() {
    Lanes lanes = new Lanes();
    lanes.add("a", new Named("ks1"), false);
    lanes.add("a", new Named("ks2"), false);
    lanes.add("a", new Named("git"), true);
    List<String> ran = new ArrayList<>();
    // the source re-queues itself each time it runs, as a fetch that bounces off a full slot does
    for (int i = 0; i < 5; i++) {
      Named next = (Named) lanes.next().orElseThrow();
      ran.add(next.name());
      if (next.name().equals("git")) {
        lanes.add("a", new Named("git"), true);
      }
    }

    assertEquals(List.of("git", "ks1", "git", "ks2", "git"), ran);
  }

  @Test
  void lanesAreStillServedRoundRobin() {
    Lanes lanes = new Lanes();
    lanes.add("a", new Named("a-ks"), false);
    lanes.add("a", new Named("a-git"), true);
    lanes.add("b", new Named("b-ks"), false);

    assertEquals(List.of("a-git", "b-ks", "a-ks"), names(lanes.drain()));
  }
}
