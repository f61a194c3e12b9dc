package dev.capstan.applier.diff;

import dev.capstan.kube.ObjectRef;

/** What applying would do to one object; {@code text} is a unified diff or a failure reason. */
public record ObjectDiff(ObjectRef ref, Change change, String text) {

  /** The kind of change. */
  public enum Change {
    UNCHANGED,
    CREATED,
    CHANGED,
    FAILED
  }

  public boolean changes() {
    return change == Change.CREATED || change == Change.CHANGED;
  }
}
