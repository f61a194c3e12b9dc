package dev.capstan.ui;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs drift comparisons on request, never on a page's refresh: at most one per Kustomization at a
 * time, each bounded by a deadline after which the page is told it timed out (and the work is
 * interrupted), the last answer kept per Kustomization and revision until asked again.
 */
final class DriftCheck implements AutoCloseable {
  /** Kustomizations whose last answer is kept; the oldest is forgotten first. */
  static final int MAX_KEPT = 32;

  /** What is compared: a Kustomization at one revision of its spec and source. */
  record Key(String namespace, String name, String revision, long generation) {}

  /** The comparison itself; {@code deadline} is when its answer is no longer awaited. */
  @FunctionalInterface
  interface Computation {
    Drift compute(Key key, Instant deadline);
  }

  private final Computation computation;
  private final ExecutorService workers;
  private final ScheduledExecutorService timer;
  private final Duration timeout;
  private final Clock clock;
  private final Map<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

  private record Entry(Key key, CompletableFuture<Drift> answer) {}

  DriftCheck(
      Computation computation,
      ExecutorService workers,
      ScheduledExecutorService timer,
      Duration timeout,
      Clock clock) {
    this.computation = computation;
    this.workers = workers;
    this.timer = timer;
    this.timeout = timeout;
    this.clock = clock;
  }

  /**
   * The answer for {@code key}: the kept one, or a new comparison when none is kept for this
   * revision or {@code again} asks for one (unless one is running).
   */
  synchronized Drift request(Key key, boolean again, Drift running) {
    String id = key.namespace() + "/" + key.name();
    Entry entry = entries.get(id);
    boolean current = entry != null && entry.key().equals(key);
    if (current && (!again || !entry.answer().isDone())) {
      return answer(entry, running);
    }
    Entry started = new Entry(key, start(key, running));
    entries.put(id, started);
    while (entries.size() > MAX_KEPT) {
      entries.remove(entries.keySet().iterator().next());
    }
    return answer(started, running);
  }

  /** The kept answer for {@code key}, if a comparison of it was asked for. */
  synchronized Optional<Drift> current(Key key, Drift running) {
    Entry entry = entries.get(key.namespace() + "/" + key.name());
    return entry != null && entry.key().equals(key)
        ? Optional.of(answer(entry, running))
        : Optional.empty();
  }

  private CompletableFuture<Drift> start(Key key, Drift running) {
    CompletableFuture<Drift> answer = new CompletableFuture<>();
    Instant deadline = clock.instant().plus(timeout);
    Future<?> work =
        workers.submit(
            () -> {
              try {
                answer.complete(computation.compute(key, deadline));
              } catch (RuntimeException e) {
                // One line for the page; the cause's text may quote what it was reading.
                answer.complete(
                    running.withState(
                        Drift.State.FAILED,
                        "the comparison failed: " + e.getClass().getSimpleName(),
                        clock.instant().toString()));
              }
            });
    timer.schedule(
        () -> {
          if (answer.complete(
              running.withState(
                  Drift.State.TIMED_OUT,
                  "timed out after "
                      + seconds(timeout)
                      + ": the comparison took too long and was stopped",
                  clock.instant().toString()))) {
            work.cancel(true);
          }
        },
        timeout.toMillis(),
        TimeUnit.MILLISECONDS);
    return answer;
  }

  private static Drift answer(Entry entry, Drift running) {
    return entry.answer().getNow(running);
  }

  private static String seconds(Duration d) {
    return d.toSeconds() + "s";
  }

  @Override
  public void close() {
    workers.shutdownNow();
  }
}
