package dev.capstan.applier.kustomize;

import dev.capstan.kustomize.worker.AnswerRoom;
import dev.capstan.kustomize.worker.Hello;
import dev.capstan.kustomize.worker.KustomizeWorker;
import dev.capstan.kustomize.worker.WorkerBinary;
import dev.capstan.kustomize.worker.WorkerException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The build workers: up to {@link BuildLimits#workers()} processes, started when first needed and
 * kept for the next build. Another worker starts only when a build has waited {@link #GROW_AFTER}
 * for a busy one: most builds take milliseconds, every worker holds its own memory for as long as
 * it lives, and on a machine whose cores are all busy even a small build can take a tenth of a
 * second. A build past its time or memory ends with its worker, and the next build gets a new one;
 * nothing else is disturbed. A worker the kernel does not confine builds only where the sandbox
 * allows it.
 */
final class BuildWorkers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BuildWorkers.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  /** How long a build waits for a busy worker before another worker is started for it. */
  static final Duration GROW_AFTER = Duration.ofMillis(500);

  private final BuildLimits limits;
  private final BuildSandbox sandbox;
  private final Semaphore slots;
  private final LinkedBlockingQueue<KustomizeWorker> idle = new LinkedBlockingQueue<>();
  private final Set<KustomizeWorker> all = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;
  private final AnswerBudget room;
  private final Duration growAfter;
  private final AtomicInteger warmingUp = new AtomicInteger();
  private WorkerBinary binary;
  private volatile Optional<String> unconfined = Optional.empty();

  BuildWorkers(BuildLimits limits, BuildSandbox sandbox) {
    this(limits, sandbox, GROW_AFTER);
  }

  BuildWorkers(BuildLimits limits, BuildSandbox sandbox, Duration growAfter) {
    this.limits = limits;
    this.growAfter = growAfter;
    this.sandbox = sandbox;
    this.slots = new Semaphore(limits.workers(), true);
    this.room = new AnswerBudget(limits.answerRoomBytes());
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "capstan-build-deadlines");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts a worker in the background, so that the first build finds one running. */
  void warmUp() {
    warmingUp.incrementAndGet();
    timer.execute(
        () -> {
          try {
            idle.offer(confined(start()));
          } catch (BuildException e) {
            LOG.warn("no build worker could be started: {}", e.error().message());
          } finally {
            warmingUp.decrementAndGet();
          }
        });
  }

  /**
   * Why builds run without the kernel's sandbox, once a worker has said so and the sandbox allows
   * it; empty while they run confined (or before any worker started).
   */
  Optional<String> unconfined() {
    return unconfined;
  }

  /**
   * A worker's answer, holding room in the JVM's memory for it and the objects read from it until
   * it is closed. The room is held apart from the bytes ({@link #room()}), so that a result keeps
   * the room without keeping the bytes.
   */
  static final class Answer implements HeldRoom {
    private final byte[] bytes;
    private final Room room;

    private Answer(byte[] bytes, AnswerBudget budget) {
      this.bytes = bytes;
      this.room = new Room(budget, bytes.length);
    }

    byte[] bytes() {
      return bytes;
    }

    HeldRoom room() {
      return room;
    }

    @Override
    public void close() {
      room.close();
    }
  }

  /** Room taken for an answer of {@code answerBytes}, given back at the first close. */
  private static final class Room implements HeldRoom {
    private final AnswerBudget budget;
    private final long answerBytes;
    private boolean closed;

    private Room(AnswerBudget budget, long answerBytes) {
      this.budget = budget;
      this.answerBytes = answerBytes;
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        budget.give(answerBytes);
      }
    }
  }

  /**
   * Runs one request on a worker and returns its answer, which holds room of the pool's answer
   * budget until it is closed.
   *
   * @param holdsDecrypted the request carries decrypted files: nothing the worker prints is logged
   */
  Answer call(byte[] request, boolean holdsDecrypted) {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BuildException(BuildErrorKind.INTERNAL, "interrupted while waiting for a worker");
    }
    try {
      KustomizeWorker worker = take();
      byte[] answer = worker.call(request, limits.timeout(), limits.maxOutputBytes(), room);
      idle.offer(worker);
      return new Answer(answer, room);
    } catch (WorkerException e) {
      throw failure(e, holdsDecrypted);
    } finally {
      slots.release();
    }
  }

  /**
   * A kept answer, read again: it takes room as a worker's answer does, waiting at most a build's
   * time for it.
   */
  Answer hold(byte[] kept) {
    try {
      if (!room.take(kept.length, System.nanoTime() + limits.timeout().toNanos())) {
        throw new BuildException(BuildErrorKind.LIMIT_EXCEEDED, noRoom(kept.length));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BuildException(BuildErrorKind.INTERNAL, "interrupted while waiting for memory");
    }
    return new Answer(kept, room);
  }

  /** Why an answer of {@code bytes} was not read: the room of all builds' results was held. */
  private String noRoom(long bytes) {
    return "build memory: the build's output ("
        + mib(bytes)
        + ", about "
        + mib(AnswerBudget.heldBytes(bytes))
        + " once read) found no room within "
        + limits.timeout().toSeconds()
        + "s among the "
        + mib(room.totalBytes())
        + " the results of all builds may hold at once until their applies end; it is tried"
        + " again";
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
  }

  /**
   * An idle worker; a new one when none is running or warming up, or when none came back within
   * growAfter.
   */
  private KustomizeWorker take() {
    KustomizeWorker worker = usable(idle.poll());
    if (worker == null && (warmingUp.get() > 0 || all.stream().anyMatch(KustomizeWorker::usable))) {
      try {
        worker = usable(idle.poll(growAfter.toNanos(), TimeUnit.NANOSECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new BuildException(BuildErrorKind.INTERNAL, "interrupted while waiting for a worker");
      }
    }
    return worker != null ? worker : confined(start());
  }

  /** {@code worker} if it can still build, else the next idle one that can; null if none. */
  private KustomizeWorker usable(KustomizeWorker worker) {
    while (worker != null && !worker.usable()) {
      worker = idle.poll();
    }
    return worker;
  }

  /** How many workers were started and can still build (for tests). */
  long running() {
    return all.stream().filter(KustomizeWorker::usable).count();
  }

  private KustomizeWorker start() {
    try {
      KustomizeWorker worker =
          KustomizeWorker.start(
              new KustomizeWorker.Settings(
                  binary(), sandbox.root(), limits.maxMemoryBytes(), sandbox.landlock(), false),
              timer,
              START_TIMEOUT);
      all.add(worker);
      all.removeIf(w -> !w.usable());
      return worker;
    } catch (WorkerException e) {
      throw failure(e, false);
    }
  }

  private synchronized WorkerBinary binary() {
    if (binary == null) {
      binary = WorkerBinary.forThisMachine(sandbox.workerCache());
    }
    return binary;
  }

  /** The worker, if the sandbox lets it build as it is confined; else it is stopped. */
  private KustomizeWorker confined(KustomizeWorker worker) {
    Hello hello = worker.hello();
    if (hello.confined()) {
      return worker;
    }
    if (sandbox.confinement() == BuildSandbox.Confinement.ALLOWED_UNCONFINED) {
      if (unconfined.isEmpty()) {
        LOG.warn("builds run without the kernel's sandbox: {}", hello.problem());
      }
      unconfined = Optional.of(hello.problem());
      return worker;
    }
    worker.close();
    throw new BuildException(
        BuildErrorKind.SANDBOX,
        "builds need the kernel's sandbox (Landlock and seccomp), which this machine cannot"
            + " give: "
            + hello.problem()
            + "; the engine's --allow-unconfined-builds builds without it");
  }

  private BuildException failure(WorkerException e, boolean holdsDecrypted) {
    String output = e.errorOutput();
    if (!output.isEmpty()) {
      // The worker's report may quote the input: to the debug log only, and not at all when the
      // input holds decrypted files.
      if (holdsDecrypted) {
        LOG.debug("{}; its output is not logged: the build read decrypted inputs", e.getMessage());
      } else {
        LOG.debug("{}; its output: {}", e.getMessage(), output);
      }
    }
    return switch (e.cause()) {
      case TIMED_OUT, ANSWER_TOO_LARGE ->
          new BuildException(BuildErrorKind.LIMIT_EXCEEDED, e.getMessage());
      case NO_ROOM -> new BuildException(BuildErrorKind.LIMIT_EXCEEDED, noRoom(e.answerBytes()));
      case OUT_OF_MEMORY ->
          new BuildException(
              BuildErrorKind.LIMIT_EXCEEDED,
              "the build needed more than "
                  + (limits.maxMemoryBytes() >> 20)
                  + " MiB of memory and was stopped");
      case UNAVAILABLE -> new BuildException(BuildErrorKind.SANDBOX, e.getMessage());
      case START_FAILED, CRASHED -> new BuildException(BuildErrorKind.INTERNAL, e.getMessage());
    };
  }

  /** The room of the answers of all builds (chart renders share it). */
  AnswerRoom room() {
    return room;
  }

  /** The room no result holds now (for tests). */
  long answerRoomFree() {
    return room.availableBytes();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    idle.clear();
    all.forEach(KustomizeWorker::close);
    all.clear();
  }
}
