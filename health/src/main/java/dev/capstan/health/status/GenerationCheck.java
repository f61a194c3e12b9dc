package dev.capstan.health.status;

/** The observedGeneration gate shared by the kstatus rules and the CEL checks. */
public final class GenerationCheck {
  public static final String REASON = "LatestGenerationNotObserved";

  private GenerationCheck() {}

  /**
   * kstatus: both fields present and different → InProgress; either missing → no opinion; a present
   * non-integer is bad input.
   */
  public static ResourceStatus strict(ObjectView object, String kind) {
    Long generation = object.integerOrNull("metadata", "generation");
    Long observed = object.integerOrNull("status", "observedGeneration");
    return mismatch(kind, generation, observed);
  }

  /** CEL checks: as {@link #strict}, but a non-integer field silently skips the gate. */
  public static ResourceStatus lenient(ObjectView object, String kind) {
    Long generation;
    Long observed;
    try {
      generation = object.integerOrNull("metadata", "generation");
      observed = object.integerOrNull("status", "observedGeneration");
    } catch (BadObjectException notAnInteger) {
      return null;
    }
    return mismatch(kind, generation, observed);
  }

  private static ResourceStatus mismatch(String kind, Long generation, Long observed) {
    if (generation == null || observed == null || generation.longValue() == observed.longValue()) {
      return null;
    }
    return ResourceStatus.inProgress(
        REASON,
        kind + " generation is " + generation + ", but latest observed generation is " + observed);
  }
}
