package dev.capstan.applier.common;

/** What happened to one object. */
public enum Action {
  CREATED("created"),
  CONFIGURED("configured"),
  UNCHANGED("unchanged"),
  DELETED("deleted"),
  FAILED("failed"),
  /**
   * Not written because the revision failed validation or an earlier stage failed, or (drift
   * detection disabled) because it is missing though applied before and the revision is the same.
   */
  SKIPPED("skipped"),
  /** Changed or deleted by another writer, and reported rather than corrected (drift warn). */
  DRIFTED("drifted");

  private final String label;

  Action(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
