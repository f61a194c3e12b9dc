package dev.capstan.cli.migrate;

import java.util.Locale;

/**
 * One field of a Flux object that Capstan refuses or treats differently, as the plan prints it.
 *
 * @param field the field, by its path in the object (e.g. {@code spec.provider})
 * @param says what Capstan does with it, in one sentence
 */
record Difference(String field, Treatment treatment, String says) {

  /** What becomes of the field. */
  enum Treatment {
    /** The twin would stall or do harm: {@code --apply} migrates nothing until it is changed. */
    REFUSED,
    /** Accepted, but Capstan does something else with it than Flux does. */
    DIFFERENT,
    /** Rewritten in the twin (a reference to a Flux group). */
    REWRITTEN
  }

  @Override
  public String toString() {
    return treatment.name().toLowerCase(Locale.ROOT) + " " + field + ": " + says;
  }
}
