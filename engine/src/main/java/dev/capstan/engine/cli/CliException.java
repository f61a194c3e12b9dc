package dev.capstan.engine.cli;

/**
 * A failure told to the user as one line on stderr, with the exit status to return. Thrown by the
 * cluster commands wherever they find something wrong; {@link CommandRunner} prints it.
 */
final class CliException extends RuntimeException {
  static final int FAILED = 1;
  static final int BAD_INPUT = 2;

  private final int exitCode;

  CliException(String message) {
    this(message, FAILED);
  }

  CliException(String message, int exitCode) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
