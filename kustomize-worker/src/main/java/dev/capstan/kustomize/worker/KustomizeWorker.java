package dev.capstan.kustomize.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One build worker process: kustomize's build (the module in {@code go/}) run natively, one framed
 * request at a time. The process confines itself before it reads a request ({@link #hello()} says
 * how). A request past its deadline ends the process; so does a build past the worker's memory
 * limit, which the worker's runtime reports. A worker that ended is never used again.
 */
public final class KustomizeWorker implements AutoCloseable {
  /**
   * How a worker is started.
   *
   * @param binary the executable, hashed again before every start ({@link WorkerBinary#verified()})
   * @param root the directory whose tree the worker may read; every request's artifact is in it
   * @param memoryLimitBytes the memory the whole process may use
   * @param landlock whether it enters Landlock (false, for tests: as on a kernel without it; its
   *     system call filter is loaded all the same)
   * @param testProbes whether it answers probe requests (tests of the sandbox only)
   */
  public record Settings(
      WorkerBinary binary, Path root, long memoryLimitBytes, boolean landlock, boolean testProbes) {
    List<String> command(Path executable) {
      List<String> command = new ArrayList<>();
      command.add(executable.toString());
      command.add("--root");
      command.add(root.toString());
      command.add("--memory-limit");
      command.add(Long.toString(memoryLimitBytes));
      if (!landlock) {
        command.add("--test-skip-landlock");
      }
      if (testProbes) {
        command.add("--test-probes");
      }
      return command;
    }
  }

  /**
   * Answers what a worker asks during a request (a chart's {@code lookup}): a frame with the
   * request's id whose body is a JSON object with a {@code question} field, answered by a frame
   * with the same id before the request goes on (see go/request.go's {@code Question}).
   */
  @FunctionalInterface
  public interface Questions {
    /** The answer's body for a question's body; a RuntimeException ends the worker. */
    byte[] answer(byte[] question);
  }

  private static final byte[] QUESTION = "{\"question\":".getBytes(StandardCharsets.US_ASCII);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AtomicInteger COUNT = new AtomicInteger();
  private static final long MAX_HELLO = 64 * 1024;

  /** The worker's exit status after a build that needed more than its memory (go/memwatch.go). */
  private static final int EXIT_MEMORY = 3;

  private final Process process;
  private final OutputStream requests;
  private final DataInputStream answers;
  private final ErrorOutput errors;
  private final ScheduledExecutorService timer;
  private final Hello hello;
  private final RequestIds ids = new RequestIds();
  // volatile: usable() is asked without the lock a request holds, so a busy worker can be counted
  private volatile boolean ended;

  private KustomizeWorker(Process process, ScheduledExecutorService timer, Duration startTimeout) {
    this.process = process;
    this.timer = timer;
    this.requests = new BufferedOutputStream(process.getOutputStream(), 64 * 1024);
    this.answers =
        new DataInputStream(new BufferedInputStream(process.getInputStream(), 64 * 1024));
    this.errors =
        new ErrorOutput(
            process.getErrorStream(), "capstan-worker-stderr-" + COUNT.incrementAndGet());
    this.hello = readHello(startTimeout);
  }

  /**
   * Starts a worker and waits for its {@link Hello}.
   *
   * @param timer runs the deadlines of requests (a worker past one is stopped from it)
   * @throws WorkerException ({@link WorkerException.Cause#START_FAILED}) when it does not start;
   *     ({@link WorkerException.Cause#UNAVAILABLE}) when its executable cannot be had with the
   *     digest this jar records
   */
  public static KustomizeWorker start(
      Settings settings, ScheduledExecutorService timer, Duration startTimeout) {
    ProcessBuilder builder = new ProcessBuilder(settings.command(settings.binary().verified()));
    // Nothing of the engine's environment (credentials, proxies, Go settings) reaches a build.
    builder.environment().clear();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new WorkerException(
          WorkerException.Cause.START_FAILED,
          "the build worker cannot be started: " + e.getMessage());
    }
    try {
      return new KustomizeWorker(process, timer, startTimeout);
    } catch (RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
  }

  private Hello readHello(Duration timeout) {
    AtomicBoolean late = new AtomicBoolean();
    ScheduledFuture<?> deadline = stopAfter(timeout, late);
    try {
      Frames.Frame first = Frames.read(answers, MAX_HELLO);
      if (first.id() != 0) {
        throw new IOException("the first frame is not a hello");
      }
      return JSON.readValue(first.body(), Hello.class);
    } catch (IOException e) {
      process.destroyForcibly();
      String why = late.get() ? "did not start within " + timeout.toSeconds() + "s" : "failed";
      throw new WorkerException(
          WorkerException.Cause.START_FAILED,
          "the build worker " + why + (ended() ? " (exit status " + exitStatus() + ")" : ""),
          errors.text(1000));
    } finally {
      deadline.cancel(false);
    }
  }

  public Hello hello() {
    return hello;
  }

  /** The operating system's id of the process (for tests and diagnostics). */
  public long pid() {
    return process.pid();
  }

  /**
   * Sends one request and waits for its answer.
   *
   * @param timeout the deadline of this request: past it the worker is stopped
   * @param maxAnswerBytes the largest answer accepted: a larger one stops the worker
   * @param room where the answer must find room before it is read; the caller gives it back once it
   *     no longer holds the answer ({@link AnswerRoom#give})
   * @throws WorkerException when the worker did not answer; it is gone afterwards, and no room is
   *     held
   */
  public byte[] call(byte[] request, Duration timeout, long maxAnswerBytes, AnswerRoom room) {
    return call(request, timeout, maxAnswerBytes, room, null);
  }

  /**
   * Sends one request, answers the worker's questions with {@code questions} (null: none are
   * expected, and a frame is the answer), and waits for its answer; the deadline covers the
   * questions too.
   *
   * @see #call(byte[], Duration, long, AnswerRoom)
   */
  public synchronized byte[] call(
      byte[] request, Duration timeout, long maxAnswerBytes, AnswerRoom room, Questions questions) {
    if (ended) {
      throw new WorkerException(WorkerException.Cause.CRASHED, "the build worker has ended");
    }
    long id = ids.next();
    long deadlineNanos = System.nanoTime() + timeout.toNanos();
    AtomicBoolean late = new AtomicBoolean();
    ScheduledFuture<?> deadline = stopAfter(timeout, late);
    try {
      Frames.write(requests, id, request);
      while (true) {
        Frames.Frame answer = Frames.read(answers, maxAnswerBytes, room, deadlineNanos);
        if (answer.id() != id) {
          room.give(answer.body().length);
          throw new IOException("an answer to request " + answer.id() + " came for " + id);
        }
        if (questions == null || !isQuestion(answer.body())) {
          return answer.body();
        }
        Frames.write(requests, id, answerOf(questions, answer.body(), room));
      }
    } catch (InterruptedException e) {
      end();
      Thread.currentThread().interrupt();
      throw new WorkerException(WorkerException.Cause.CRASHED, "interrupted while building");
    } catch (Frames.NoRoom e) {
      end();
      throw WorkerException.noRoom(e.size(), timeout);
    } catch (Frames.TooLarge e) {
      end();
      throw new WorkerException(
          WorkerException.Cause.ANSWER_TOO_LARGE,
          "the build's output is larger than " + (maxAnswerBytes >> 20) + " MiB");
    } catch (IOException e) {
      end();
      throw failure(late.get(), timeout);
    } finally {
      deadline.cancel(false);
    }
  }

  private static boolean isQuestion(byte[] body) {
    return Arrays.equals(
        body, 0, Math.min(body.length, QUESTION.length), QUESTION, 0, QUESTION.length);
  }

  /** The answer to a question, whose room is given back; a failure to answer ends the worker. */
  private byte[] answerOf(Questions questions, byte[] question, AnswerRoom room) {
    try {
      return questions.answer(question);
    } catch (RuntimeException e) {
      end();
      throw e;
    } finally {
      room.give(question.length);
    }
  }

  private WorkerException failure(boolean late, Duration timeout) {
    if (late) {
      return new WorkerException(
          WorkerException.Cause.TIMED_OUT,
          "the build did not finish within " + timeout.toSeconds() + "s and was stopped");
    }
    String output = errors.text(2000);
    if (exitedFor(EXIT_MEMORY)
        || output.contains("out of memory")
        || output.contains("cannot allocate memory")) {
      return new WorkerException(
          WorkerException.Cause.OUT_OF_MEMORY, "the build ran out of memory", output);
    }
    return new WorkerException(
        WorkerException.Cause.CRASHED,
        "the build worker ended (exit status " + exitStatus() + ")",
        output);
  }

  private ScheduledFuture<?> stopAfter(Duration timeout, AtomicBoolean late) {
    return timer.schedule(
        () -> {
          late.set(true);
          process.destroyForcibly();
        },
        timeout.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private boolean ended() {
    try {
      return process.waitFor(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private boolean exitedFor(int status) {
    return !process.isAlive() && process.exitValue() == status;
  }

  private String exitStatus() {
    return process.isAlive() ? "none yet" : Integer.toString(process.exitValue());
  }

  private void end() {
    ended = true;
    process.destroyForcibly();
    ended();
  }

  /** Whether the worker may take another request; answers at once, even during a request. */
  public boolean usable() {
    return !ended && process.isAlive();
  }

  /** Ends the worker: its input closes, and it is stopped if it does not end at once. */
  @Override
  public synchronized void close() {
    ended = true;
    try {
      requests.close();
    } catch (IOException ignored) {
      // already gone
    }
    try {
      if (!process.waitFor(200, TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
