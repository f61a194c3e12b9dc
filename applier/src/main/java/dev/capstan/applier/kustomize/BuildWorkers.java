package dev.capstan.applier.kustomize;

import dev.capstan.kustomize.worker.AnswerRoom;
import dev.capstan.kustomize.worker.Hello;
import dev.capstan.kustomize.worker.WorkerBinary;
import dev.capstan.kustomize.worker.WorkerException;
import dev.capstan.kustomize.worker.WorkerPool;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
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

  /** How long a build waits for a busy worker before another worker is started for it. */
  static final Duration GROW_AFTER = Duration.ofMillis(500);

  private final BuildLimits limits;
  private final BuildSandbox sandbox;
  private final WorkerPool pool;
  private final AnswerBudget room;
  private volatile Optional<String> unconfined = Optional.empty();

  BuildWorkers(BuildLimits limits, BuildSandbox sandbox) {
    this(limits, sandbox, GROW_AFTER);
  }

  BuildWorkers(BuildLimits limits, BuildSandbox sandbox, Duration growAfter) {
    this.limits = limits;
    this.sandbox = sandbox;
    this.room = new AnswerBudget(limits.answerRoomBytes());
    this.pool =
        new WorkerPool(
            new WorkerPool.Spec(
                "capstan-build-deadlines",
                limits.workers(),
                growAfter,
                () -> WorkerBinary.forThisMachine(sandbox.workerCache()),
                sandbox.root(),
                limits.maxMemoryBytes(),
                sandbox.landlock(),
                this::confined));
  }

  /** Starts a worker in the background, so that the first build finds one running. */
  void warmUp() {
    pool.warmUp(this::warmUpFailed);
  }

  private void warmUpFailed(RuntimeException e) {
    BuildException failure;
    if (e instanceof WorkerException w) {
      failure = failure(w, false);
    } else if (e instanceof BuildException b) {
      failure = b;
    } else {
      throw e;
    }
    LOG.warn("no build worker could be started: {}", failure.error().message());
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
      byte[] answer = pool.call(request, limits.timeout(), limits.maxOutputBytes(), room);
      return new Answer(answer, room);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BuildException(BuildErrorKind.INTERNAL, "interrupted while waiting for a worker");
    } catch (WorkerException e) {
      // a worker that did not start never read the request: what it printed may be logged
      throw failure(e, holdsDecrypted && !startFailure(e));
    }
  }

  private static boolean startFailure(WorkerException e) {
    return e.cause() == WorkerException.Cause.START_FAILED
        || e.cause() == WorkerException.Cause.UNAVAILABLE;
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

  /** How many workers were started and can still build (for tests). */
  long running() {
    return pool.running();
  }

  /** Refuses a worker the kernel does not confine, unless the sandbox lets it build so. */
  private void confined(Hello hello) {
    if (hello.confined()) {
      return;
    }
    if (sandbox.confinement() == BuildSandbox.Confinement.ALLOWED_UNCONFINED) {
      if (unconfined.isEmpty()) {
        LOG.warn("builds run without the kernel's sandbox: {}", hello.problem());
      }
      unconfined = Optional.of(hello.problem());
      return;
    }
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
    pool.close();
  }
}
