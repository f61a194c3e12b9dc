package dev.capstan.engine.conditions;

import java.util.Objects;

/** Where one reconcile of a Kustomization ended up. */
public sealed interface Phase {

  /** Still running: started, or applied and waiting for health. */
  record Progressing(String message) implements Phase {
    public Progressing {
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * The revision was applied and everything waited for is healthy.
   *
   * @param warning what the user should know although it succeeded (empty: nothing)
   */
  record Succeeded(String revision, String warning) implements Phase {
    public Succeeded {
      Objects.requireNonNull(revision, "revision");
      Objects.requireNonNull(warning, "warning");
    }

    public Succeeded(String revision) {
      this(revision, "");
    }
  }

  /** Not a failure: something this one needs is not there yet (a dependency). */
  record Waiting(Reason reason, String message) implements Phase {
    public Waiting {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * A stage failed. A terminal failure needs a change of the spec or the source to go away and is
   * not retried; a transient one is.
   */
  record Failed(Reason reason, String message, boolean terminal) implements Phase {
    public Failed {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }
  }
}
