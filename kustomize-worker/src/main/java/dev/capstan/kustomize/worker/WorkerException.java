package dev.capstan.kustomize.worker;

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
    ANSWER_TOO_LARGE
  }

  private final Cause cause;
  private final String errorOutput;

  WorkerException(Cause cause, String message) {
    this(cause, message, "");
  }

  WorkerException(Cause cause, String message, String errorOutput) {
    super(message, null, false, false);
    this.cause = cause;
    this.errorOutput = errorOutput;
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
}
