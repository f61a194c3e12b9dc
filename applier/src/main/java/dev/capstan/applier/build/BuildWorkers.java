package dev.capstan.applier.build;

import dev.capstan.kustomize.worker.Hello;
import dev.capstan.kustomize.worker.KustomizeWorker;
import dev.capstan.kustomize.worker.WorkerBinary;
import dev.capstan.kustomize.worker.WorkerException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The build workers: up to {@link BuildLimits#workers()} processes, started when first needed and
 * kept for the next build. A build past its time or memory ends with its worker, and the next build
 * gets a new one; nothing else is disturbed. A worker the kernel does not confine builds only where
 * the sandbox allows it.
 */
final class BuildWorkers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BuildWorkers.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final BuildLimits limits;
  private final BuildSandbox sandbox;
  private final Semaphore slots;
  private final ConcurrentLinkedQueue<KustomizeWorker> idle = new ConcurrentLinkedQueue<>();
  private final Set<KustomizeWorker> all = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;
  private final AnswerBudget room;
  private WorkerBinary binary;
  private volatile Optional<String> unconfined = Optional.empty();

  BuildWorkers(BuildLimits limits, BuildSandbox sandbox) {
    this.limits = limits;
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
    timer.execute(
        () -> {
          try {
            idle.offer(confined(start()));
          } catch (BuildException e) {
            LOG.warn("no build worker could be started: {}", e.error().message());
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

  /** A worker's answer, holding room in the JVM's memory until it is closed. */
  static final class Answer implements AutoCloseable {
    private final byte[] bytes;
    private final AnswerBudget room;
    private boolean closed;

    private Answer(byte[] bytes, AnswerBudget room) {
      this.bytes = bytes;
      this.room = room;
    }

    byte[] bytes() {
      return bytes;
    }

    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        room.give(bytes.length);
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
      KustomizeWorker worker = idle.poll();
      while (worker != null && !worker.usable()) {
        worker = idle.poll();
      }
      if (worker == null) {
        worker = confined(start());
      }
      byte[] answer = worker.call(request, limits.timeout(), limits.maxOutputBytes(), room);
      idle.offer(worker);
      return new Answer(answer, room);
    } catch (WorkerException e) {
      throw failure(e, holdsDecrypted);
    } finally {
      slots.release();
    }
  }

  private KustomizeWorker start() {
    try {
      KustomizeWorker worker =
          KustomizeWorker.start(
              new KustomizeWorker.Settings(
                  binary().path(),
                  sandbox.root(),
                  limits.maxMemoryBytes(),
                  sandbox.kernelSandbox(),
                  false),
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

  /** The room no answer holds now (for tests). */
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
