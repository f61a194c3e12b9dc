package dev.capstan.engine.fairness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fixed number of threads that take queued tasks round-robin across lanes (one lane a namespace),
 * first-in first-out within a lane: a lane with a thousand tasks queued delays a task of another
 * lane by at most one task per lane ahead of it, where a plain pool's one queue would run the
 * thousand first. Within a lane, tasks that {@code first} picks (the sources' reconciles) run
 * before the others: a fetch asked for must not wait behind the Kustomizations of its namespace,
 * which would only build the revision it is about to replace.
 *
 * <p>The queue is not capped, on purpose: the reconcile executor is handed at most one task per
 * resource at a time (the controller framework marks a resource as being processed until its task
 * ends), so the queue is bounded by the resources in the cache, and a task refused would leave its
 * resource marked as processing, never reconciled again. Tasks are refused only after {@link
 * #shutdown()}; the ones queued then still run.
 */
public final class FairExecutor extends AbstractExecutorService {

  private static final Logger LOG = LoggerFactory.getLogger(FairExecutor.class);

  private final int threads;
  private final ThreadFactory factory;
  private final Function<Runnable, String> laneOf;
  private final Predicate<Runnable> first;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition queuedOrShutdown = lock.newCondition();
  private final Condition workerEnded = lock.newCondition();
  private final Lanes lanes = new Lanes();
  private final List<Thread> workers = new ArrayList<>();
  private int running;
  private boolean shutdown;
  private volatile BiConsumer<String, Duration> waited = (lane, wait) -> {};

  /** A task as queued: its lane and when it came, to tell how long it waited. */
  private record Queued(Runnable task, String lane, long atNanos) implements Runnable {
    @Override
    public void run() {
      task.run();
    }
  }

  private FairExecutor(
      int threads,
      ThreadFactory factory,
      Function<Runnable, String> laneOf,
      Predicate<Runnable> first) {
    this.threads = threads;
    this.factory = factory;
    this.laneOf = laneOf;
    this.first = first;
  }

  /**
   * An executor of {@code threads} threads named {@code threadName}-1, -2, … (started on the first
   * task, so that one never used holds none; not daemons, as the framework's own pool), each task's
   * lane named by {@code laneOf}.
   */
  public static FairExecutor create(
      int threads, String threadName, Function<Runnable, String> laneOf) {
    return create(threads, threadName, laneOf, task -> false);
  }

  /** The same, the tasks {@code first} picks run before the other tasks of their lane. */
  public static FairExecutor create(
      int threads,
      String threadName,
      Function<Runnable, String> laneOf,
      Predicate<Runnable> first) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    Objects.requireNonNull(threadName);
    AtomicInteger count = new AtomicInteger();
    ThreadFactory factory = task -> new Thread(task, threadName + "-" + count.incrementAndGet());
    return new FairExecutor(
        threads, factory, Objects.requireNonNull(laneOf), Objects.requireNonNull(first));
  }

  @Override
  public void execute(Runnable task) {
    Objects.requireNonNull(task);
    String lane = laneOf.apply(task);
    boolean ahead = first.test(task);
    lock.lock();
    try {
      if (shutdown) {
        throw new RejectedExecutionException("the executor is shut down");
      }
      startWorkers();
      String named = lane == null ? "" : lane;
      lanes.add(named, new Queued(task, named, System.nanoTime()), ahead);
      queuedOrShutdown.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Tells {@code listener} how long each task waited in its lane before a worker took it (the queue
   * wait per namespace of the metrics); called on the worker, outside the executor's lock.
   */
  public void onWaited(BiConsumer<String, Duration> listener) {
    this.waited = Objects.requireNonNull(listener);
  }

  /** Tasks queued and not yet started. */
  public int queued() {
    lock.lock();
    try {
      return lanes.size();
    } finally {
      lock.unlock();
    }
  }

  private void startWorkers() {
    while (workers.size() < threads) {
      Thread worker = factory.newThread(this::work);
      workers.add(worker);
      running++;
      worker.start();
    }
  }

  private void work() {
    try {
      for (Optional<Runnable> task = take(); task.isPresent(); task = take()) {
        Queued queued = (Queued) task.get();
        tellWaited(queued);
        runOne(queued.task());
      }
    } finally {
      lock.lock();
      try {
        running--;
        workerEnded.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private void tellWaited(Queued queued) {
    try {
      waited.accept(queued.lane(), Duration.ofNanos(System.nanoTime() - queued.atNanos()));
    } catch (RuntimeException e) {
      LOG.warn("the queue wait of a task could not be recorded", e);
    }
  }

  private static void runOne(Runnable task) {
    try {
      task.run();
    } catch (Throwable e) {
      // The worker stays: a task's failure is its own, the lanes behind it still run (a checked
      // exception thrown sneakily would otherwise end the worker and nothing would replace it).
      LOG.error("A task of the reconcile executor failed", e);
    }
  }

  /** The next task, waiting for one; empty once shut down with nothing queued. */
  private Optional<Runnable> take() {
    lock.lock();
    try {
      while (true) {
        Optional<Runnable> task = lanes.next();
        if (task.isPresent() || shutdown) {
          return task;
        }
        queuedOrShutdown.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutdown() {
    lock.lock();
    try {
      shutdown = true;
      queuedOrShutdown.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<Runnable> shutdownNow() {
    lock.lock();
    try {
      shutdown = true;
      List<Runnable> left = lanes.drain().stream().map(q -> ((Queued) q).task()).toList();
      workers.forEach(Thread::interrupt);
      queuedOrShutdown.signalAll();
      return left;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isShutdown() {
    lock.lock();
    try {
      return shutdown;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isTerminated() {
    lock.lock();
    try {
      return shutdown && running == 0 && lanes.size() == 0;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long left = unit.toNanos(timeout);
    lock.lock();
    try {
      while (!(shutdown && running == 0 && lanes.size() == 0)) {
        if (left <= 0) {
          return false;
        }
        left = workerEnded.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }
}
