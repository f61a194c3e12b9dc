package dev.capstan.cli.cluster;

/**
 * A failure told to the user as one line on stderr, with the exit status to return. Thrown by the
 * commands wherever they find something wrong; {@link CommandRunner} prints it.
 */
public final class CliException extends RuntimeException {
  /** The exit status of a command that failed. */
  public static final int FAILED = 1;

  /** The exit status of a command given input it cannot use. */
  public static final int BAD_INPUT = 2;

  private final int exitCode;

  public CliException(String message) {
    this(message, FAILED);
  }

  public CliException(String message, int exitCode) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }
}
