package dev.capstan.engine.fairness;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Queued tasks by lane, taken round-robin across the lanes that hold any and first-in first-out
 * within one, except that a lane's tasks added {@code first} run before its others (first-in
 * first-out among themselves), taking turns with them while both are queued. Not thread-safe:
 * {@link FairExecutor} guards it with its lock. A lane without tasks is forgotten, so what is held
 * is the queued tasks and nothing per namespace seen once.
 */
final class Lanes {

  /**
   * One lane's tasks: those to run first, and the others. While both are queued they take turns, so
   * that a stream of first tasks (a namespace's sources, fetching again and again) cannot starve
   * the others: a task to run first waits behind at most one other, and another behind at most one
   * to run first.
   */
  private static final class Lane {
    private final ArrayDeque<Runnable> first = new ArrayDeque<>();
    private final ArrayDeque<Runnable> rest = new ArrayDeque<>();
    private boolean firstServedLast;

    void add(Runnable task, boolean toRunFirst) {
      (toRunFirst ? first : rest).addLast(task);
    }

    Runnable poll() {
      boolean takeFirst = !first.isEmpty() && (rest.isEmpty() || !firstServedLast);
      firstServedLast = takeFirst;
      return takeFirst ? first.pollFirst() : rest.pollFirst();
    }

    boolean isEmpty() {
      return first.isEmpty() && rest.isEmpty();
    }
  }

  private final Map<String, Lane> queued = new HashMap<>();
  // The lanes holding tasks, in the order they are served; each lane is in it once.
  private final ArrayDeque<String> turns = new ArrayDeque<>();
  private int size;

  /** Queues {@code task} in {@code lane}, ahead of the lane's other tasks if {@code first}. */
  void add(String lane, Runnable task, boolean first) {
    Lane tasks = queued.get(lane);
    if (tasks == null) {
      tasks = new Lane();
      queued.put(lane, tasks);
      // A lane that had nothing queued waits behind the lanes that have, one task each.
      turns.addLast(lane);
    }
    tasks.add(task, first);
    size++;
  }

  /**
   * The next task: the oldest of the lane whose turn it is (of those to run first, if any and if
   * the lane's last task was not one of them); that lane goes to the back.
   */
  Optional<Runnable> next() {
    String lane = turns.pollFirst();
    if (lane == null) {
      return Optional.empty();
    }
    Lane tasks = queued.get(lane);
    Runnable task = tasks.poll();
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
