package dev.capstan.engine.ops;

import java.util.Locale;

/** How one reconcile, fetch or health wait ended, as the {@code result} metric tag. */
public enum ReconcileOutcome {
  SUCCESS,
  FAILURE,
  /** Nothing was done this time: suspended, or waiting for a dependency. */
  SKIPPED;

  String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
