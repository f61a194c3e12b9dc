package dev.capstan.engine.dependencies;

import java.util.Objects;

/** Whether one dependency lets its dependent go ahead, and if not, why. */
public record DependencyReadiness(boolean isReady, String reason) {
  public DependencyReadiness {
    Objects.requireNonNull(reason, "reason");
  }

  public static DependencyReadiness ready() {
    return new DependencyReadiness(true, "");
  }

  public static DependencyReadiness notReady(String reason) {
    return new DependencyReadiness(false, reason);
  }
}
