package dev.capstan.cli.faults;

/** A fault that was injected but broke something as it ran (not a failure to inject it). */
final class FaultBroke extends Exception {
  FaultBroke(String message) {
    super(message);
  }
}
