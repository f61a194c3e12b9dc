package dev.capstan.engine.helmrelease;

import dev.capstan.helm.release.ReleaseHook;
import java.util.EnumSet;
import java.util.Set;

/** The policies of Helm's {@code helm.sh/hook-delete-policy} annotation. */
enum HookDeletePolicy {
  BEFORE_HOOK_CREATION("before-hook-creation"),
  HOOK_SUCCEEDED("hook-succeeded"),
  HOOK_FAILED("hook-failed");

  private final String text;

  HookDeletePolicy(String text) {
    this.text = text;
  }

  /**
   * The policies of {@code hook}: {@code before-hook-creation} when it names none, as Helm
   * defaults; words Helm does not know are left out, as Helm ignores them.
   */
  static Set<HookDeletePolicy> of(ReleaseHook hook) {
    if (hook.deletePolicies() == null || hook.deletePolicies().isEmpty()) {
      return EnumSet.of(BEFORE_HOOK_CREATION);
    }
    Set<HookDeletePolicy> policies = EnumSet.noneOf(HookDeletePolicy.class);
    for (HookDeletePolicy policy : values()) {
      if (hook.deletePolicies().contains(policy.text)) {
        policies.add(policy);
      }
    }
    return policies;
  }
}
