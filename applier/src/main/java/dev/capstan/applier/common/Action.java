package dev.capstan.applier.common;

import java.util.Locale;

/** What happened to one object. */
public enum Action {
  CREATED,
  CONFIGURED,
  UNCHANGED,
  DELETED,
  FAILED,
  /**
   * Not written because the revision failed validation or an earlier stage failed, or (drift
   * detection disabled) because it is missing though applied before and the revision is the same.
   */
  SKIPPED,
  /** Changed or deleted by another writer, and reported rather than corrected (drift warn). */
  DRIFTED;

  /** The action as printed, the lowercase name: {@code created}, {@code unchanged}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
