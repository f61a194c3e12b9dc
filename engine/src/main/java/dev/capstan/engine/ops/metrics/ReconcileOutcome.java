package dev.capstan.engine.ops.metrics;

import java.util.Locale;

/** How one reconcile, fetch or health wait ended, as the {@code result} metric tag. */
public enum ReconcileOutcome {
  SUCCESS,
  FAILURE,
  /** Nothing was done: suspended. */
  SKIPPED,
  /** Nothing was tried: waiting for a dependency to become ready. */
  DEPENDENCY_NOT_READY;

  String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
