package dev.capstan.engine.ops.server;

/** Whether the engine can serve, and why not. */
public record Readiness(boolean ready, String reason) {

  public static Readiness ready(String reason) {
    return new Readiness(true, reason);
  }

  public static Readiness notReady(String reason) {
    return new Readiness(false, reason);
  }
}
