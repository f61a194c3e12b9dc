package dev.capstan.applier;

/** What happened to one object. */
public enum Action {
  CREATED("created"),
  CONFIGURED("configured"),
  UNCHANGED("unchanged"),
  DELETED("deleted"),
  FAILED("failed"),
  /** Not written because the revision failed validation or an earlier stage failed. */
  SKIPPED("skipped");

  private final String label;

  Action(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
