package dev.capstan.kustomize.worker;

import java.time.Duration;

/**
 * A worker that could not answer a request. The worker is gone after every cause but {@link
 * Cause#UNAVAILABLE} (which is about the executable, before any worker ran).
 */
public final class WorkerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why the worker did not answer. */
  public enum Cause {
    /** No worker can run on this machine: no executable for it, or one that is not ours. */
    UNAVAILABLE,
    /** The worker did not start, or did not say how it is confined. */
    START_FAILED,
    /** The request ran past its deadline; the worker was stopped. */
    TIMED_OUT,
    /** The worker needed more memory than its limit and ended. */
    OUT_OF_MEMORY,
    /** The worker ended for another reason (it should not). */
    CRASHED,
    /** The answer was larger than the JVM accepts; the worker was stopped. */
    ANSWER_TOO_LARGE,
    /**
     * The answer found no room in the JVM's memory within the request's time ({@link AnswerRoom}):
     * other answers held it. The worker was stopped.
     */
    NO_ROOM
  }

  private final Cause cause;
  private final String errorOutput;
  private final long answerBytes;

  WorkerException(Cause cause, String message) {
    this(cause, message, "");
  }

  WorkerException(Cause cause, String message, String errorOutput) {
    this(cause, message, errorOutput, 0);
  }

  private WorkerException(Cause cause, String message, String errorOutput, long answerBytes) {
    super(message, null, false, false);
    this.cause = cause;
    this.errorOutput = errorOutput;
    this.answerBytes = answerBytes;
  }

  /** An answer of {@code bytes} that found no room in time. */
  static WorkerException noRoom(long bytes, Duration timeout) {
    return new WorkerException(
        Cause.NO_ROOM,
        "the build's answer of "
            + bytes
            + " bytes found no room in the JVM's memory within "
            + timeout.toSeconds()
            + "s",
        "",
        bytes);
  }

  public Cause cause() {
    return cause;
  }

  /**
   * What the worker wrote to its standard error before it ended, cut to its last 16 KiB: the Go
   * runtime's report. It may quote the input being built, so it is for a debug log at most.
   */
  public String errorOutput() {
    return errorOutput;
  }

  /** The size of the answer, for {@link Cause#NO_ROOM}; 0 for other causes. */
  public long answerBytes() {
    return answerBytes;
  }
}
