package dev.capstan.engine.fairness;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Queued tasks by lane, taken round-robin across the lanes that hold any and first-in first-out
 * within one. Not thread-safe: {@link FairExecutor} guards it with its lock. A lane without tasks
 * is forgotten, so what is held is the queued tasks and nothing per namespace seen once.
 */
final class Lanes {

  private final Map<String, ArrayDeque<Runnable>> queued = new HashMap<>();
  // The lanes holding tasks, in the order they are served; each lane is in it once.
  private final ArrayDeque<String> turns = new ArrayDeque<>();
  private int size;

  void add(String lane, Runnable task) {
    ArrayDeque<Runnable> tasks = queued.get(lane);
    if (tasks == null) {
      tasks = new ArrayDeque<>();
      queued.put(lane, tasks);
      // A lane that had nothing queued waits behind the lanes that have, one task each.
      turns.addLast(lane);
    }
    tasks.addLast(task);
    size++;
  }

  /** The next task: the oldest of the lane whose turn it is; that lane goes to the back. */
  Optional<Runnable> next() {
    String lane = turns.pollFirst();
    if (lane == null) {
      return Optional.empty();
    }
    ArrayDeque<Runnable> tasks = queued.get(lane);
    Runnable task = tasks.pollFirst();
    if (tasks.isEmpty()) {
      queued.remove(lane);
    } else {
      turns.addLast(lane);
    }
    size--;
    return Optional.of(task);
  }

  int size() {
    return size;
  }

  /** Every queued task, in the order they would have run, leaving none. */
  List<Runnable> drain() {
    List<Runnable> all = new ArrayList<>(size);
    for (Optional<Runnable> task = next(); task.isPresent(); task = next()) {
      all.add(task.get());
    }
    return all;
  }
}
