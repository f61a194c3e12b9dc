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
import dev.capstan.helm.release.ReleaseInfo;
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
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * The hooks of one event of a release (pre-install, post-upgrade, ...) run as Helm runs them: in
 * order of weight, then name (stable over the render's kind order); each deleted first by its
 * {@code before-hook-creation} policy (the default when it names none), created by server-side
 * apply, and, a Job or a Pod, waited on until it completed (a Job Complete, a Pod Succeeded), at
 * most {@code spec.timeout} from its creation; a hook of any other kind is done once created, as
 * Helm waits on nothing else. Once every hook of the event succeeded, those with {@code
 * hook-succeeded} are deleted, the last run first; when one fails, it is deleted by {@code
 * hook-failed} and the ones that succeeded before it by {@code hook-succeeded}. A
 * CustomResourceDefinition hook is never deleted, as Helm never deletes one. Each hook's last run
 * (phase, started and completed) is written into the pending release record as it changes, so
 * {@code helm get hooks} and {@code helm history} show it; Running only once the hook was created.
 * A hook of both a pre and a post event runs in each ({@link #beginPost}).
 *
 * <p>Why a hook's wait is a waiting outcome and not a blocking wait: a hook may run for the whole
 * {@code spec.timeout} (five minutes by default), and a reconcile thread held for it would starve
 * the other releases of the pool. The record is the hook's state instead: a hook left Running is
 * looked at once by each reconcile (at the wait poll) until it is done, failed, or past its
 * deadline. Deleting a hook before it is created again does wait for it to go (a Job's spec cannot
 * be changed), bounded by {@link #DELETE_WAIT}.
 */
final class ReleaseHooks {
  /** How long a hook's deletion before its creation is waited for at most. */
  static final Duration DELETE_WAIT = Duration.ofSeconds(30);

  /** The kinds Helm waits on; every other hook is ready once created. */
  private static final Set<String> WAITED_ON = Set.of("Job", "Pod");

  /** Helm never deletes a CRD hook, whatever its policy: its custom resources would go with it. */
  private static final String CRD = "CustomResourceDefinition";

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
  static List<Integer> order(List<ReleaseHook> hooks, HookEvent event) {
    return IntStream.range(0, hooks.size())
        .filter(i -> event.in(hooks.get(i).events()))
        .boxed()
        .sorted(
            Comparator.<Integer>comparingInt(i -> hooks.get(i).weight())
                .thenComparing(i -> hooks.get(i).name()))
        .toList();
  }

  /** Whether any hook of {@code event} has started a run in {@code record}. */
  static boolean started(ReleaseRecord record, HookEvent event) {
    return hooksOf(record).stream()
        .anyMatch(h -> event.in(h.events()) && HookPhase.of(h) != HookPhase.UNKNOWN);
  }

  /**
   * Whether the release's objects were applied and its {@code post} event begun: the pending
   * record's description says so, written by {@link #beginPost}. A hook's phase cannot tell, as a
   * hook of both a pre and a post event keeps one last run for both.
   */
  static boolean postBegun(ReleaseRecord record, HookEvent post) {
    ReleaseInfo info = record.release().info();
    return info != null && postDescription(post).equals(info.description());
  }

  /**
   * The record once the objects are applied: its description marks the {@code post} event begun,
   * and the hooks of that event that ran in the pre event are not run in it yet, so each runs again
   * as Helm runs it in every event it names. Unchanged (not written) when the event has no hooks.
   */
  ReleaseRecord beginPost(ReleaseRecord record, HookEvent post) {
    List<Integer> order = order(hooksOf(record), post);
    if (order.isEmpty()) {
      return record;
    }
    List<ReleaseHook> hooks = new ArrayList<>(hooksOf(record));
    for (int i : order) {
      hooks.set(i, withRun(hooks.get(i), ReleaseHook.Execution.NEVER));
    }
    Release release = record.release();
    Release next =
        ReleaseBuilder.builder(release)
            .hooks(hooks)
            .info(release.info().withDescription(postDescription(post)))
            .build();
    return write(record, next);
  }

  private static String postDescription(HookEvent post) {
    return "Running " + post + " hooks";
  }

  /** Whether a hook of {@code record} is running: its release is waiting for it. */
  static boolean running(ReleaseRecord record) {
    return hooksOf(record).stream().anyMatch(h -> HookPhase.of(h) == HookPhase.RUNNING);
  }

  /**
   * Runs {@code event}'s hooks of {@code record} on from where they stand: one that succeeded is
   * passed, one running is looked at, the next one created.
   *
   * @param began when the release began: the start of a hook whose record lost its own
   * @throws Failed naming the hook that failed or timed out
   */
  Run run(
      HelmRelease release,
      ReleaseRecord record,
      HookEvent event,
      Instant began,
      HealthEvaluator evaluator) {
    return run(release, record, event, began, evaluator, Scope.all(release));
  }

  /** Which hooks of an event run, and how long each may take. */
  record Scope(Predicate<String> selected, Duration timeout) {
    static Scope all(HelmRelease release) {
      return new Scope(name -> true, release.getSpec().effectiveTimeout());
    }
  }

  /** As {@link #run(HelmRelease, ReleaseRecord, HookEvent, Instant, HealthEvaluator)}, scoped. */
  Run run(
      HelmRelease release,
      ReleaseRecord record,
      HookEvent event,
      Instant began,
      HealthEvaluator evaluator,
      Scope scope) {
    ReleaseRecord current = record;
    List<Integer> order =
        order(hooksOf(record), event).stream()
            .filter(i -> scope.selected().test(hooksOf(record).get(i).name()))
            .toList();
    if (order.stream().allMatch(i -> phase(record, i) == HookPhase.SUCCEEDED)) {
      return new Done(record); // done by an earlier reconcile, deletions included
    }
    for (int i : order) {
      if (phase(current, i) == HookPhase.SUCCEEDED) {
        continue;
      }
      if (phase(current, i) != HookPhase.RUNNING) {
        current = create(release, current, i, event);
      }
      ReleaseHook hook = hooksOf(current).get(i);
      if (!WAITED_ON.contains(hook.kind())) {
        current = ended(current, i, HookPhase.SUCCEEDED);
        continue;
      }
      AggregateHealth health = acting.waiter().health(List.of(ref(release, hook)), evaluator);
      if (health.status() == Status.Current) {
        current = ended(current, i, HookPhase.SUCCEEDED);
        continue;
      }
      boolean failed = health.status() == Status.Failed;
      Instant deadline = startedAt(hook, began).plus(scope.timeout());
      if (!failed && clock.instant().isBefore(deadline)) {
        return new Running(current, event + " hook " + describe(hook) + " is running");
      }
      current = ended(current, i, HookPhase.FAILED);
      deleteAfterFailure(release, current, order, i);
      throw new Failed(
          current,
          event
              + " hook "
              + describe(hook)
              + (failed
                  ? " failed: " + health.message()
                  : " did not complete within " + scope.timeout()));
    }
    // last-first, as Helm deletes the hooks of an event that all succeeded
    for (int i : reversed(order)) {
      deleteBy(release, current, i, HookDeletePolicy.HOOK_SUCCEEDED);
    }
    return new Done(current);
  }

  /**
   * After hook {@code failed} failed: it deleted by {@code hook-failed}, and the hooks of its event
   * that succeeded before it by {@code hook-succeeded}, as Helm deletes the hooks it ran before.
   */
  private void deleteAfterFailure(
      HelmRelease release, ReleaseRecord record, List<Integer> order, int failed) {
    deleteBy(release, record, failed, HookDeletePolicy.HOOK_FAILED);
    for (int i : order) {
      if (i != failed && phase(record, i) == HookPhase.SUCCEEDED) {
        deleteBy(release, record, i, HookDeletePolicy.HOOK_SUCCEEDED);
      }
    }
  }

  /** Hook {@code i} deleted when it carries {@code policy}, not waited for. */
  private void deleteBy(HelmRelease release, ReleaseRecord record, int i, HookDeletePolicy policy) {
    ReleaseHook hook = hooksOf(record).get(i);
    if (HookDeletePolicy.of(hook).contains(policy)) {
      delete(release, record, hook, false);
    }
  }

  /** The hook deleted first by its policy, then created; its run started now, in the record. */
  private ReleaseRecord create(HelmRelease release, ReleaseRecord record, int i, HookEvent event) {
    ReleaseHook hook = hooksOf(record).get(i);
    List<GenericKubernetesResource> objects;
    try {
      objects = ManifestObjects.parse(hook.manifest(), "hook " + describe(hook));
    } catch (IllegalArgumentException e) {
      throw new Failed(ended(record, i, HookPhase.FAILED), event + " " + e.getMessage());
    }
    if (objects.size() != 1) {
      throw new Failed(
          ended(record, i, HookPhase.FAILED),
          event + " hook " + describe(hook) + " is not one object but " + objects.size());
    }
    if (HookDeletePolicy.of(hook).contains(HookDeletePolicy.BEFORE_HOOK_CREATION)) {
      delete(release, record, hook, true);
    }
    ApplyRequest request =
        ApplyRequest.of(objects, ReleaseApply.owner(release))
            .withTimeout(release.getSpec().effectiveTimeout())
            .withDefaultNamespace(release.releaseNamespace())
            .withFirstApply(true);
    // Running is written once the hook exists: a resumed run waits only on a hook that was created
    String startedAt = now();
    ApplyResult result;
    try {
      result = acting.applier().apply(request);
    } catch (KubernetesClientException e) {
      throw new Failed(
          notCreated(record, i, startedAt),
          event + " hook " + describe(hook) + " could not be created: " + e.getMessage());
    }
    if (!result.succeeded()) {
      throw new Failed(
          notCreated(record, i, startedAt),
          event
              + " hook "
              + describe(hook)
              + " could not be created: "
              + ObjectFailures.describe(result.failures()));
    }
    return withRun(record, i, new ReleaseHook.Execution(startedAt, null, HookPhase.RUNNING.text()));
  }

  /** The record with hook {@code i}'s run, begun at {@code startedAt}, failed now; written. */
  private ReleaseRecord notCreated(ReleaseRecord record, int i, String startedAt) {
    return withRun(record, i, new ReleaseHook.Execution(startedAt, now(), HookPhase.FAILED.text()));
  }

  /** Deletes {@code hook}, waiting for it to go if asked; a failure fails the release. */
  private void delete(
      HelmRelease release, ReleaseRecord record, ReleaseHook hook, boolean waitForIt) {
    if (CRD.equals(hook.kind())) {
      return;
    }
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
  private ReleaseRecord ended(ReleaseRecord record, int i, HookPhase phase) {
    ReleaseHook.Execution run = hooksOf(record).get(i).lastRun();
    String started = run == null || run.startedAt() == null ? now() : run.startedAt();
    return withRun(record, i, new ReleaseHook.Execution(started, now(), phase.text()));
  }

  private ReleaseRecord withRun(ReleaseRecord record, int i, ReleaseHook.Execution run) {
    List<ReleaseHook> hooks = new ArrayList<>(hooksOf(record));
    hooks.set(i, withRun(hooks.get(i), run));
    return write(record, ReleaseBuilder.builder(record.release()).hooks(hooks).build());
  }

  private static ReleaseHook withRun(ReleaseHook h, ReleaseHook.Execution run) {
    return new ReleaseHook(
        h.name(),
        h.kind(),
        h.path(),
        h.manifest(),
        h.events(),
        run,
        h.weight(),
        h.deletePolicies(),
        h.outputLogPolicies());
  }

  private ReleaseRecord write(ReleaseRecord record, Release next) {
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

  /** When {@code hook}'s run started; {@code otherwise} when its record has no time Helm reads. */
  private static Instant startedAt(ReleaseHook hook, Instant otherwise) {
    return hook.lastRun() == null
        ? otherwise
        : HelmTime.parse(hook.lastRun().startedAt(), otherwise);
  }

  private static List<Integer> reversed(List<Integer> order) {
    List<Integer> reversed = new ArrayList<>(order);
    Collections.reverse(reversed);
    return reversed;
  }

  private static HookPhase phase(ReleaseRecord record, int i) {
    return HookPhase.of(hooksOf(record).get(i));
  }

  private static String describe(ReleaseHook hook) {
    return hook.kind() + "/" + hook.name() + " (" + hook.path() + ")";
  }

  static List<ReleaseHook> hooksOf(ReleaseRecord record) {
    List<ReleaseHook> hooks = record.release().hooks();
    return hooks == null ? List.of() : hooks;
  }
}
