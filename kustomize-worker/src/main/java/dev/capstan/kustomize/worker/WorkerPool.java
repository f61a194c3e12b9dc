package dev.capstan.kustomize.worker;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A pool of workers of one kind: up to {@link Spec#workers()} processes, started when first needed
 * (or by {@link #warmUp}) and kept for the next request. A request past its time or memory ends
 * with its worker, and the next request gets a new one; nothing else is disturbed. No process and
 * no thread runs before the first request or warm-up.
 */
public final class WorkerPool implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  /**
   * What the pool's workers are.
   *
   * @param threadName the name of the thread that runs the requests' deadlines
   * @param workers how many requests run at once, each in a worker of its own
   * @param growAfter how long a request waits for a busy worker before another one is started for
   *     it; zero: a new one at once
   * @param binary the workers' executable, asked for once, at the first start
   * @param root the directory whose tree the workers may read
   * @param memoryLimitBytes the memory one worker process may use
   * @param landlock whether workers enter Landlock (false only for tests)
   * @param check looks at a new worker's hello and throws if the worker may not serve; the pool
   *     then stops it and the exception reaches the caller
   */
  @RecordBuilder
  public record Spec(
      String threadName,
      int workers,
      Duration growAfter,
      Supplier<WorkerBinary> binary,
      Path root,
      long memoryLimitBytes,
      boolean landlock,
      Consumer<Hello> check)
      implements WorkerPoolSpecBuilder.With {}

  private final Spec spec;
  private final Semaphore slots;
  private final LinkedBlockingQueue<KustomizeWorker> idle = new LinkedBlockingQueue<>();
  private final Set<KustomizeWorker> all = ConcurrentHashMap.newKeySet();
  // its thread starts with the first task, so an unused pool runs none
  private final ScheduledExecutorService timer;
  private final AtomicInteger warmingUp = new AtomicInteger();
  private WorkerBinary binary;

  public WorkerPool(Spec spec) {
    this.spec = spec;
    this.slots = new Semaphore(spec.workers(), true);
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, spec.threadName());
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Starts a worker in the background, so that the first request finds one running.
   *
   * @param failed told why, when none could be started (a {@link WorkerException}, or what the
   *     spec's check threw)
   */
  public void warmUp(Consumer<RuntimeException> failed) {
    warmingUp.incrementAndGet();
    timer.execute(
        () -> {
          try {
            idle.offer(start());
          } catch (RuntimeException e) {
            failed.accept(e);
          } finally {
            warmingUp.decrementAndGet();
          }
        });
  }

  /**
   * Runs one request on a worker and returns its answer, which holds {@code answerBytes} of {@code
   * room} until the caller gives it back.
   *
   * @throws WorkerException when no worker could be started ({@link
   *     WorkerException.Cause#START_FAILED}, {@link WorkerException.Cause#UNAVAILABLE}) or the
   *     worker did not answer
   * @throws InterruptedException when interrupted while waiting for a worker
   */
  public byte[] call(byte[] request, Duration timeout, long maxAnswerBytes, AnswerRoom room)
      throws InterruptedException {
    return call(request, timeout, maxAnswerBytes, room, null);
  }

  /**
   * Runs one request on a worker, answering its questions with {@code questions} (see {@link
   * KustomizeWorker#call(byte[], Duration, long, AnswerRoom, KustomizeWorker.Questions)}).
   */
  public byte[] call(
      byte[] request,
      Duration timeout,
      long maxAnswerBytes,
      AnswerRoom room,
      KustomizeWorker.Questions questions)
      throws InterruptedException {
    slots.acquire();
    try {
      KustomizeWorker worker = take();
      byte[] answer = worker.call(request, timeout, maxAnswerBytes, room, questions);
      idle.offer(worker);
      return answer;
    } finally {
      slots.release();
    }
  }

  /**
   * An idle worker; a new one when none is running or warming up, or when none came back within
   * growAfter.
   */
  private KustomizeWorker take() throws InterruptedException {
    KustomizeWorker worker = usable(idle.poll());
    if (worker == null && (warmingUp.get() > 0 || all.stream().anyMatch(KustomizeWorker::usable))) {
      worker = usable(idle.poll(spec.growAfter().toNanos(), TimeUnit.NANOSECONDS));
    }
    return worker != null ? worker : start();
  }

  /** {@code worker} if it can still serve, else the next idle one that can; null if none. */
  private KustomizeWorker usable(KustomizeWorker worker) {
    while (worker != null && !worker.usable()) {
      worker = idle.poll();
    }
    return worker;
  }

  private KustomizeWorker start() {
    KustomizeWorker worker =
        KustomizeWorker.start(
            new KustomizeWorker.Settings(
                binary(), spec.root(), spec.memoryLimitBytes(), spec.landlock(), false),
            timer,
            START_TIMEOUT);
    all.add(worker);
    all.removeIf(w -> !w.usable());
    try {
      spec.check().accept(worker.hello());
    } catch (RuntimeException e) {
      worker.close();
      throw e;
    }
    return worker;
  }

  private synchronized WorkerBinary binary() {
    if (binary == null) {
      binary = spec.binary().get();
    }
    return binary;
  }

  /** How many workers were started and can still serve (for tests). */
  public long running() {
    return all.stream().filter(KustomizeWorker::usable).count();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    idle.clear();
    all.forEach(KustomizeWorker::close);
    all.clear();
  }
}
