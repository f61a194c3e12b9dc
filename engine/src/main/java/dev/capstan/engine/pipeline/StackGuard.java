package dev.capstan.engine.pipeline;

import java.util.function.Supplier;

/**
 * The pipelines' boundary against hostile nesting: a reconcile that runs out of stack (deeply
 * nested YAML, status or expression input reached some recursive code) ends as a terminal failure
 * instead of an Error that neither the pipeline nor the operator framework would handle, which
 * would leave the object never marked finished until a restart. The stack is unwound by the time
 * the error reaches here, so writing the status afterwards is safe. The message names no input.
 */
final class StackGuard {
  private StackGuard() {}

  /** Runs {@code stage}; running out of stack gives {@code tooDeep}'s answer instead. */
  static <T> T orElse(Supplier<T> stage, Supplier<T> tooDeep) {
    try {
      return stage.get();
    } catch (StackOverflowError e) {
      return tooDeep.get();
    }
  }
}
