package dev.capstan.engine.helmrelease;

import dev.capstan.helm.release.ReleaseHook;

/** Where a hook's last run stands in the release record, in Helm's words. */
enum HookPhase {
  /** Never run (Helm's record has no phase, or one it does not know). */
  UNKNOWN("Unknown"),
  RUNNING("Running"),
  SUCCEEDED("Succeeded"),
  FAILED("Failed");

  private final String text;

  HookPhase(String text) {
    this.text = text;
  }

  /** The phase as the release record spells it. */
  String text() {
    return text;
  }

  /** The phase of {@code hook}'s last run; a record is read as written, so unknown words too. */
  static HookPhase of(ReleaseHook hook) {
    if (hook.lastRun() == null || hook.lastRun().phase() == null) {
      return UNKNOWN;
    }
    for (HookPhase phase : values()) {
      if (phase.text.equals(hook.lastRun().phase())) {
        return phase;
      }
    }
    return UNKNOWN;
  }
}
