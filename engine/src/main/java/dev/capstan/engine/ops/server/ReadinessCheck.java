package dev.capstan.engine.ops.server;

/**
 * Answers {@code /readyz}. The engine is ready once its controllers started and, with leader
 * election, it either leads or stands by with a healthy connection to the API server.
 */
@FunctionalInterface
public interface ReadinessCheck {
  Readiness check();
}
