package dev.capstan.ui;

import java.util.List;

/**
 * What a Kustomization's page says about drift: what {@code capstan diff} would show for its
 * revision against the cluster, or why it cannot say.
 *
 * @param revision the revision compared; empty when there is none
 * @param revisionFrom where the revision was taken from, as the page says it
 * @param commit the revision's commit, when it was fetched
 * @param message why there is no comparison, or what it found in a sentence
 * @param objects the objects that differ or could not be compared, in the revision's order
 * @param compared objects the revision holds
 * @param differing objects that would change or be created
 * @param computedAt when the comparison ended (ISO-8601); empty while it runs
 */
record Drift(
    State state,
    String revision,
    String revisionFrom,
    Commit commit,
    String message,
    List<ObjectLine> objects,
    int compared,
    int differing,
    String computedAt) {

  /** Where a comparison is. */
  enum State {
    NOT_ASKED,
    RUNNING,
    DONE,
    FAILED,
    TIMED_OUT,
    /** Nothing to compare: no revision, or a source not in the user's view. */
    UNAVAILABLE,
    /** Not fetched: the engine would refuse it ({@code ReferenceRules}). */
    REFUSED
  }

  Drift {
    objects = List.copyOf(objects);
  }

  static Drift of(
      State state,
      String revision,
      String revisionFrom,
      Commit commit,
      String message,
      String computedAt) {
    return new Drift(state, revision, revisionFrom, commit, message, List.of(), 0, 0, computedAt);
  }

  Drift withState(State next, String nextMessage, String at) {
    return new Drift(
        next, revision, revisionFrom, commit, nextMessage, objects, compared, differing, at);
  }

  /** A commit as the page shows it; every field bounded and free of control characters. */
  record Commit(String id, String author, String time, String subject) {}

  /**
   * @param change CREATED, CHANGED or FAILED
   * @param text the unified diff (Secret values masked) or the reason it could not be compared
   */
  record ObjectLine(String ref, String change, String text) {}
}
