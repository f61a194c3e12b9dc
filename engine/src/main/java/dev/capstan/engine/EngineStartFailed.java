package dev.capstan.engine;

/** The engine could not start; the message says why, in one line a user can act on. */
public final class EngineStartFailed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  EngineStartFailed(String message) {
    super(message);
  }
}
