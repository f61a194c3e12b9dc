package dev.capstan.engine.dependencies;

import java.util.Objects;

/** Whether one dependency lets its dependent go ahead, and if not, why. */
public record Readiness(boolean isReady, String reason) {
  public Readiness {
    Objects.requireNonNull(reason, "reason");
  }

  public static Readiness ready() {
    return new Readiness(true, "");
  }

  public static Readiness notReady(String reason) {
    return new Readiness(false, reason);
  }
}
