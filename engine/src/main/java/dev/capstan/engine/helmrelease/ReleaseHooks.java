package dev.capstan.engine.helmrelease;

import dev.capstan.api.helm.HelmRelease;
import dev.capstan.applier.apply.ApplyRequest;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.engine.pipeline.Acting;
import dev.capstan.engine.pipeline.ObjectFailures;
import dev.capstan.health.AggregateHealth;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.HelmTime;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseBuilder;
import dev.capstan.helm.release.ReleaseHook;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseRecordException;
import dev.capstan.kube.ObjectRef;
import dev.capstan.kustomize.chart.ChartRender;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The hooks of one event of a release (pre-install, post-upgrade, ...) run as Helm runs them: in
 * order of weight, then name (stable over the render's kind order); each deleted first by its
 * {@code before-hook-creation} policy (the default when it names none), created by server-side
 * apply, and waited on until its health is Current (a Job Complete, a Pod Succeeded, any other kind
 * by the health rules), then deleted by {@code hook-succeeded} or {@code hook-failed}. Each hook's
 * last run (phase, started and completed) is written into the pending release record as it changes,
 * so {@code helm get hooks} and {@code helm history} show it.
 *
 * <p>Why a hook's wait is a waiting outcome and not a blocking wait: a hook may run for the whole
 * {@code spec.timeout} (five minutes by default), and a reconcile thread held for it would starve
 * the other releases of the pool. The record is the hook's state instead: a hook left Running is
 * looked at once by each reconcile (at the wait poll) until it is done, failed, or past the
 * deadline, as {@link ReleaseHealth} judges objects. Deleting a hook before it is created again
 * does wait for it to go (a Job's spec cannot be changed), bounded by {@link #DELETE_WAIT}.
 */
final class ReleaseHooks {
  static final String RUNNING = "Running";
  static final String SUCCEEDED = "Succeeded";
  static final String FAILED = "Failed";

  static final String BEFORE_CREATION = "before-hook-creation";
  static final String ON_SUCCESS = "hook-succeeded";
  static final String ON_FAILURE = "hook-failed";

  /** How long a hook's deletion before its creation is waited for at most. */
  static final Duration DELETE_WAIT = Duration.ofSeconds(30);

  private final Acting acting;
  private final ReleaseStore store;
  private final Clock clock;

  ReleaseHooks(Acting acting, ReleaseStore store, Clock clock) {
    this.acting = acting;
    this.store = store;
    this.clock = clock;
  }

  /** Where the hooks of one event stand after one look. */
  sealed interface Run {
    ReleaseRecord record();
  }

  /** Every hook of the event succeeded (or it has none). */
  record Done(ReleaseRecord record) implements Run {}

  /** A hook is still running: look again. */
  record Running(ReleaseRecord record, String message) implements Run {}

  /** A hook failed, or did not complete by the deadline; its record says so. */
  static final class Failed extends RuntimeException {
    private final transient ReleaseRecord record;

    Failed(ReleaseRecord record, String message) {
      super(message, null, false, false);
      this.record = record;
    }

    ReleaseRecord record() {
      return record;
    }
  }

  /** The rendered hooks as a release record keeps them, none run yet. */
  static List<ReleaseHook> of(List<ChartRender.Hook> hooks) {
    return hooks.stream()
        .map(
            h ->
                new ReleaseHook(
                    h.name(),
                    h.kind(),
                    h.path(),
                    h.manifest(),
                    h.events(),
                    ReleaseHook.Execution.NEVER,
                    h.weight(),
                    h.deletePolicies(),
                    h.outputLogPolicies()))
        .toList();
  }

  /**
   * The positions of {@code event}'s hooks in {@code hooks}, in the order Helm runs them: weight,
   * then name; hooks equal in both keep the render's (kind) order.
   */
  static List<Integer> order(List<ReleaseHook> hooks, String event) {
    return IntStream.range(0, hooks.size())
        .filter(i -> hooks.get(i).events().contains(event))
        .boxed()
        .sorted(
            Comparator.<Integer>comparingInt(i -> hooks.get(i).weight())
                .thenComparing(i -> hooks.get(i).name()))
        .toList();
  }

  /** Whether any hook of {@code event} has started a run in {@code record}. */
  static boolean started(ReleaseRecord record, String event) {
    return hooksOf(record).stream()
        .anyMatch(h -> h.events().contains(event) && !lastPhase(h).isEmpty());
  }

  /** Whether a hook of {@code record} is running: its release is waiting for it. */
  static boolean running(ReleaseRecord record) {
    return hooksOf(record).stream().anyMatch(h -> RUNNING.equals(lastPhase(h)));
  }

  /**
   * Runs {@code event}'s hooks of {@code record} on from where they stand: one that succeeded is
   * passed, one running is looked at, the next one created.
   *
   * @param deadline when a hook still running has failed ({@code spec.timeout} after the release
   *     began)
   * @throws Failed naming the hook that failed or timed out
   */
  Run run(
      HelmRelease release,
      ReleaseRecord record,
      String event,
      Instant deadline,
      HealthEvaluator evaluator) {
    ReleaseRecord current = record;
    List<Integer> order = order(hooksOf(record), event);
    if (order.stream().allMatch(i -> SUCCEEDED.equals(lastPhase(hooksOf(record).get(i))))) {
      return new Done(record); // done by an earlier reconcile, deletions included
    }
    for (int i : order) {
      ReleaseHook hook = hooksOf(current).get(i);
      if (SUCCEEDED.equals(lastPhase(hook))) {
        continue;
      }
      if (!RUNNING.equals(lastPhase(hook))) {
        current = create(release, current, i, event);
        hook = hooksOf(current).get(i);
      }
      AggregateHealth health = acting.waiter().health(List.of(ref(release, hook)), evaluator);
      if (health.status() == Status.Current) {
        current = ended(current, i, SUCCEEDED);
        continue;
      }
      boolean failed = health.status() == Status.Failed;
      if (!failed && clock.instant().isBefore(deadline)) {
        return new Running(current, event + " hook " + describe(hook) + " is running");
      }
      current = ended(current, i, FAILED);
      if (deletes(hook, ON_FAILURE)) {
        delete(release, current, hook, false);
      }
      throw new Failed(
          current,
          event
              + " hook "
              + describe(hook)
              + (failed
                  ? " failed: " + health.message()
                  : " did not complete within " + release.getSpec().effectiveTimeout()));
    }
    for (int i : order) {
      ReleaseHook hook = hooksOf(current).get(i);
      if (deletes(hook, ON_SUCCESS)) {
        delete(release, current, hook, false);
      }
    }
    return new Done(current);
  }

  /** The hook deleted first by its policy, then created; its run started now, in the record. */
  private ReleaseRecord create(HelmRelease release, ReleaseRecord record, int i, String event) {
    ReleaseHook hook = hooksOf(record).get(i);
    List<GenericKubernetesResource> objects;
    try {
      objects = ManifestObjects.parse(hook.manifest(), "hook " + describe(hook));
    } catch (IllegalArgumentException e) {
      throw new Failed(ended(record, i, FAILED), event + " " + e.getMessage());
    }
    if (objects.size() != 1) {
      throw new Failed(
          ended(record, i, FAILED),
          event + " hook " + describe(hook) + " is not one object but " + objects.size());
    }
    if (hook.deletePolicies().isEmpty() || deletes(hook, BEFORE_CREATION)) {
      delete(release, record, hook, true);
    }
    ApplyRequest request =
        ApplyRequest.of(objects, ReleaseApply.owner(release))
            .withTimeout(release.getSpec().effectiveTimeout())
            .withDefaultNamespace(release.releaseNamespace())
            .withFirstApply(true);
    ReleaseRecord started = withRun(record, i, new ReleaseHook.Execution(now(), null, RUNNING));
    ApplyResult result;
    try {
      result = acting.applier().apply(request);
    } catch (KubernetesClientException e) {
      throw new Failed(
          ended(started, i, FAILED),
          event + " hook " + describe(hook) + " could not be created: " + e.getMessage());
    }
    if (!result.succeeded()) {
      throw new Failed(
          ended(started, i, FAILED),
          event
              + " hook "
              + describe(hook)
              + " could not be created: "
              + ObjectFailures.describe(result.failures()));
    }
    return started;
  }

  /** Deletes {@code hook}, waiting for it to go if asked; a failure fails the release. */
  private void delete(
      HelmRelease release, ReleaseRecord record, ReleaseHook hook, boolean waitForIt) {
    InventorySet one = InventorySet.of(List.of(ref(release, hook)));
    List<ObjectResult> failures =
        acting
            .pruner()
            .deleteInventory(one, ReleaseApply.owner(release), DELETE_WAIT, waitForIt)
            .stream()
            .filter(ObjectResult::failed)
            .toList();
    if (!failures.isEmpty()) {
      throw new Failed(record, "hook " + describe(hook) + ": " + ObjectFailures.describe(failures));
    }
  }

  /** The record with hook {@code i}'s run ended now in {@code phase}, written. */
  private ReleaseRecord ended(ReleaseRecord record, int i, String phase) {
    ReleaseHook.Execution run = hooksOf(record).get(i).lastRun();
    String started = run == null || run.startedAt() == null ? now() : run.startedAt();
    return withRun(record, i, new ReleaseHook.Execution(started, now(), phase));
  }

  private ReleaseRecord withRun(ReleaseRecord record, int i, ReleaseHook.Execution run) {
    List<ReleaseHook> hooks = new ArrayList<>(hooksOf(record));
    ReleaseHook h = hooks.get(i);
    hooks.set(
        i,
        new ReleaseHook(
            h.name(),
            h.kind(),
            h.path(),
            h.manifest(),
            h.events(),
            run,
            h.weight(),
            h.deletePolicies(),
            h.outputLogPolicies()));
    Release next = ReleaseBuilder.builder(record.release()).hooks(hooks).build();
    try {
      return store.update(record, next);
    } catch (ReleaseRecordException e) {
      throw new Failed(record, e.getMessage());
    }
  }

  private String now() {
    return HelmTime.format(clock.instant());
  }

  private static ObjectRef ref(HelmRelease release, ReleaseHook hook) {
    ObjectRef ref = ObjectRef.of(ManifestObjects.parse(hook.manifest(), "a hook").get(0));
    return ref.namespace().isEmpty() ? ref.withNamespace(release.releaseNamespace()) : ref;
  }

  private static boolean deletes(ReleaseHook hook, String policy) {
    return hook.deletePolicies().contains(policy);
  }

  private static String describe(ReleaseHook hook) {
    return hook.kind() + "/" + hook.name() + " (" + hook.path() + ")";
  }

  static String lastPhase(ReleaseHook hook) {
    return hook.lastRun() == null || hook.lastRun().phase() == null ? "" : hook.lastRun().phase();
  }

  static List<ReleaseHook> hooksOf(ReleaseRecord record) {
    List<ReleaseHook> hooks = record.release().hooks();
    return hooks == null ? List.of() : hooks;
  }
}
