package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.helm.release.ReleaseHook;
import dev.capstan.helm.release.ReleaseRecord;
import java.time.Duration;
import java.util.List;

/**
 * Hooks deleted by their {@code helm.sh/hook-delete-policy} ({@link HookDeletePolicy}) as Helm's
 * actions delete them: before a hook is created again, after its event succeeded or after it
 * failed. A CRD hook is never deleted.
 */
final class HookDeletion {
  /** How long a hook's deletion before its creation is waited for at most. */
  static final Duration DELETE_WAIT = Duration.ofSeconds(30);

  /** Helm never deletes a CRD hook, whatever its policy: its custom resources would go with it. */
  private static final String CRD = "CustomResourceDefinition";

  private final Acting acting;

  HookDeletion(Acting acting) {
    this.acting = acting;
  }

  /**
   * After hook {@code failed} failed: it deleted by {@code hook-failed}, and the hooks of its event
   * that succeeded before it by {@code hook-succeeded}, as Helm deletes the hooks it ran before.
   */
  void afterFailure(HelmRelease release, ReleaseRecord record, List<Integer> order, int failed) {
    by(release, record, failed, HookDeletePolicy.HOOK_FAILED);
    for (int i : order) {
      if (i != failed && ReleaseHooks.phase(record, i) == HookPhase.SUCCEEDED) {
        by(release, record, i, HookDeletePolicy.HOOK_SUCCEEDED);
      }
    }
  }

  /** Hook {@code i} deleted when it carries {@code policy}, not waited for. */
  void by(HelmRelease release, ReleaseRecord record, int i, HookDeletePolicy policy) {
    ReleaseHook hook = ReleaseHooks.hooksOf(record).get(i);
    if (HookDeletePolicy.of(hook).contains(policy)) {
      delete(release, record, hook, false);
    }
  }

  /** Deletes {@code hook}, waiting for it to go if asked; a failure fails the release. */
  void delete(HelmRelease release, ReleaseRecord record, ReleaseHook hook, boolean waitForIt) {
    if (CRD.equals(hook.kind())) {
      return;
    }
    InventorySet one = InventorySet.of(List.of(ReleaseHooks.ref(release, hook)));
    List<ObjectResult> failures =
        acting
            .pruner()
            .deleteInventory(one, ReleaseApply.owner(release), DELETE_WAIT, waitForIt)
            .stream()
            .filter(ObjectResult::failed)
            .toList();
    if (!failures.isEmpty()) {
      throw new ReleaseHooks.Failed(
          record, "hook " + ReleaseHooks.describe(hook) + ": " + ObjectFailures.describe(failures));
    }
  }
}
