package dev.capstan.engine.kustomization;

import dev.capstan.engine.conditions.Phase;
import dev.capstan.engine.conditions.Reason;
import java.util.function.UnaryOperator;

/** Stops the pipeline at a stage; carries what goes on the status. */
final class StageFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Phase phase;

  /** How far the reconcile got when the stage failed; null: as far as the stage before. */
  private final transient Attempt attempt;

  private StageFailure(Phase phase, String message) {
    this(phase, message, null);
  }

  private StageFailure(Phase phase, String message, Attempt attempt) {
    super(message, null, false, false);
    this.phase = phase;
    this.attempt = attempt;
  }

  static StageFailure transientFailure(Reason reason, String message) {
    return new StageFailure(new Phase.Failed(reason, message, false), message);
  }

  static StageFailure terminal(Reason reason, String message) {
    return new StageFailure(new Phase.Failed(reason, message, true), message);
  }

  /** Not a failure: the pipeline waits for something outside it (a dependency). */
  static StageFailure waiting(Reason reason, String message) {
    return new StageFailure(new Phase.Waiting(reason, message), message);
  }

  /**
   * The terminal failure for {@code what} (e.g. "the build input") being nested too deeply: the
   * reconcile ran out of stack (see the pipeline package's StackGuard).
   */
  static StageFailure tooDeep(Reason reason, String what) {
    return terminal(reason, what + " nests too deeply to be processed");
  }

  Phase phase() {
    return phase;
  }

  /** The same failure, with what the failing stage found out before it failed. */
  StageFailure after(Attempt reached) {
    return new StageFailure(phase, getMessage(), reached);
  }

  /** How far the reconcile got: what the failing stage found, or else {@code otherwise}. */
  Attempt reached(Attempt otherwise) {
    return attempt == null ? otherwise : attempt;
  }

  /** The same failure with its message passed through {@code redaction} (decrypted content out). */
  StageFailure redacted(UnaryOperator<String> redaction) {
    if (phase instanceof Phase.Failed f) {
      return new StageFailure(
          new Phase.Failed(f.reason(), redaction.apply(f.message()), f.terminal()),
          redaction.apply(getMessage()));
    }
    if (phase instanceof Phase.Waiting w) {
      return new StageFailure(
          new Phase.Waiting(w.reason(), redaction.apply(w.message())),
          redaction.apply(getMessage()));
    }
    return this;
  }
}
