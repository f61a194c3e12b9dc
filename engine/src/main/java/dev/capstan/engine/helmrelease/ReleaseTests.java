package dev.capstan.engine.helmrelease;

import dev.capstan.api.common.GoDuration;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.api.helm.HelmReleaseSpec;
import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.ReleaseSnapshot.TestHookStatus;
import dev.capstan.api.helm.ReleaseTest;
import dev.capstan.engine.conditions.ReleaseObservation.HealthState;
import dev.capstan.engine.conditions.ReleaseObservation.TestRun;
import dev.capstan.engine.conditions.ReleaseObservation.TestSeen;
import dev.capstan.engine.conditions.ReleaseObservation.TestsFailed;
import dev.capstan.engine.conditions.ReleaseObservation.TestsNotLooked;
import dev.capstan.engine.conditions.ReleaseObservation.TestsOff;
import dev.capstan.engine.conditions.ReleaseObservation.TestsPassed;
import dev.capstan.engine.conditions.ReleaseObservation.TestsPending;
import dev.capstan.engine.conditions.ReleaseObservation.TestsRunning;
import dev.capstan.health.HealthEvaluator;
import dev.capstan.helm.release.Release;
import dev.capstan.helm.release.ReleaseHistory;
import dev.capstan.helm.release.ReleaseHook;
import dev.capstan.helm.release.ReleaseRecord;
import dev.capstan.helm.release.ReleaseStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Helm tests of a deployed release ({@code spec.test}), as Flux's helm-controller runs them
 * once its install or upgrade succeeded and its objects are ready: the {@code test} hooks (Helm's
 * legacy {@code test-success} too) that the filters select, run as {@link ReleaseHooks} runs any
 * event's hooks, each given the test timeout. The release record keeps each test's last run, and so
 * where the tests of its version stand: they run once per version, a failed one is not run again
 * until a new version is released. The record stays deployed, as Helm leaves it.
 */
final class ReleaseTests {
  private static final Logger LOG = LoggerFactory.getLogger(ReleaseTests.class);
  private final ReleaseRecording recording;
  private final ReleaseHooks hooks;
  private final Clock clock;

  ReleaseTests(ReleaseRecording recording, ReleaseHooks hooks, Clock clock) {
    this.recording = recording;
    this.hooks = hooks;
    this.clock = clock;
  }

  /**
   * Where the tests of {@code release}'s latest deployed record stand, run on when its objects'
   * wait is over ({@code state}) and tests remain. Failures are judged by the remediation of the
   * action the status last attempted, as {@link ReleaseDecision} reads them (Flux's active
   * remediation), whatever made the record (a rollback, an adoption).
   */
  TestSeen look(HelmRelease release, HealthState state, HealthEvaluator evaluator) {
    HelmReleaseSpec spec = release.getSpec();
    if (!spec.testsEnabled()) {
      return new TestsOff();
    }
    ReleaseAction action = ReleaseStatusStage.lastAction(release);
    Optional<ReleaseRecord> latest =
        recording
            .history(release)
            .latest()
            .filter(r -> r.release().status() == ReleaseStatus.DEPLOYED);
    if (latest.isEmpty()) {
      return new TestsNotLooked();
    }
    TestSeen seen = seen(spec, action, latest.get());
    boolean waitOver = state == HealthState.CURRENT || state == HealthState.UNSETTLED;
    if (!waitOver || !(seen instanceof TestsPending || seen instanceof TestsRunning)) {
      return seen;
    }
    HookScope scope = new HookScope(selected(spec.test()), timeout(spec));
    try {
      ReleaseHooks.Run run =
          hooks.run(release, latest.get(), HookEvent.TEST, clock.instant(), evaluator, scope);
      return seen(spec, action, run.record());
    } catch (ReleaseHooks.Failed f) {
      return failed(spec, action, f);
    }
  }

  /**
   * After a test run failed: a failed test says why in the engine's words (a hook not created, a
   * timeout, the hook's status; never its output); a run whose record write failed is not a test
   * failure, and is looked at again at the poll of a running test.
   */
  private static TestSeen failed(
      HelmReleaseSpec spec, ReleaseAction action, ReleaseHooks.Failed f) {
    TestSeen after = seen(spec, action, f.record());
    if (after instanceof TestsFailed failed) {
      return new TestsFailed(
          failed.message() + ": " + f.getMessage(), failed.ignored(), failed.run());
    }
    LOG.warn(
        "Helm test run of {} not recorded: {}",
        ReleaseRecording.where(f.record().release()),
        f.getMessage());
    String awaiting =
        after instanceof TestsPending p
            ? p.message()
            : after instanceof TestsRunning r ? r.message() : "Helm tests awaited";
    return new TestsRunning(awaiting + ": " + f.getMessage());
  }

  /**
   * Where the tests of {@code record} stand, from the last runs of its selected test hooks. Names a
   * failed test, never its output.
   */
  static TestSeen seen(HelmReleaseSpec spec, ReleaseAction action, ReleaseRecord record) {
    if (!spec.testsEnabled()) {
      return new TestsOff();
    }
    List<ReleaseHook> tests = tests(spec.test(), record);
    Release release = record.release();
    String of =
        " for release "
            + ReleaseRecording.where(release)
            + " with chart "
            + release.chart().name()
            + "@"
            + release.chart().version();
    Optional<ReleaseHook> failed = first(tests, HookPhase.FAILED);
    if (failed.isPresent()) {
      return new TestsFailed(
          "Helm test failed" + of + ": test hook " + failed.get().name() + " failed",
          ignoresFailures(spec, action),
          run(release.version(), tests));
    }
    if (tests.stream().allMatch(h -> HookPhase.of(h) == HookPhase.SUCCEEDED)) {
      return new TestsPassed(
          "Helm test succeeded" + of + ": " + passed(tests.size()), run(release.version(), tests));
    }
    String awaiting = "Helm release" + of.substring(" for release".length()) + " is awaiting tests";
    Optional<ReleaseHook> running = first(tests, HookPhase.RUNNING);
    return running.isPresent()
        ? new TestsRunning(awaiting + ": test hook " + running.get().name() + " is running")
        : new TestsPending(awaiting);
  }

  /**
   * Whether {@code record}, deployed, failed a test that fails the release: tests on, and failures
   * not ignored by the remediation of {@code action} (the one that made it).
   */
  static boolean failsRelease(HelmReleaseSpec spec, ReleaseAction action, ReleaseRecord record) {
    return record.release().status() == ReleaseStatus.DEPLOYED
        && seen(spec, action, record) instanceof TestsFailed f
        && !f.ignored();
  }

  /**
   * Whether a failed test leaves the release alone: the {@code ignoreTestFailures} of the
   * remediation of {@code action}, else {@code test.ignoreFailures}, as Flux reads them.
   */
  static boolean ignoresFailures(HelmReleaseSpec spec, ReleaseAction action) {
    boolean byTest = spec.test() != null && Boolean.TRUE.equals(spec.test().ignoreFailures());
    Boolean byRemediation =
        action == ReleaseAction.upgrade
            ? spec.effectiveUpgrade().effectiveRemediation().ignoreTestFailures()
            : spec.effectiveInstall().effectiveRemediation().ignoreTestFailures();
    return byRemediation == null ? byTest : byRemediation;
  }

  /**
   * The tests {@code test.filters} select, as Helm's name filters: an excluded name never runs;
   * when any name is included, only the included ones run.
   */
  static Predicate<String> selected(ReleaseTest test) {
    List<ReleaseTest.Filter> filters =
        test == null || test.filters() == null ? List.of() : test.filters();
    List<String> excluded = names(filters, true);
    List<String> included = names(filters, false);
    return name -> !excluded.contains(name) && (included.isEmpty() || included.contains(name));
  }

  /** {@code test.timeout}, else {@code spec.timeout}. */
  static Duration timeout(HelmReleaseSpec spec) {
    String timeout = spec.test() == null ? null : spec.test().timeout();
    return timeout == null ? spec.effectiveTimeout() : GoDuration.parse(timeout);
  }

  private static List<String> names(List<ReleaseTest.Filter> filters, boolean excluded) {
    return filters.stream()
        .filter(f -> Boolean.TRUE.equals(f.exclude()) == excluded)
        .map(ReleaseTest.Filter::name)
        .toList();
  }

  /** The selected test hooks of {@code record}, in the order they run. */
  private static List<ReleaseHook> tests(ReleaseTest test, ReleaseRecord record) {
    List<ReleaseHook> all = ReleaseHooks.hooksOf(record);
    Predicate<String> selected = selected(test);
    return ReleaseHooks.order(all, HookEvent.TEST).stream()
        .map(all::get)
        .filter(h -> selected.test(h.name()))
        .toList();
  }

  /**
   * Where the tests of {@code history}'s latest record stand when it is deployed; not looked at
   * otherwise.
   */
  static TestSeen ofLatest(HelmReleaseSpec spec, ReleaseAction action, ReleaseHistory history) {
    return history
        .latest()
        .filter(r -> r.release().status() == ReleaseStatus.DEPLOYED)
        .map(r -> seen(spec, action, r))
        .orElse(new TestsNotLooked());
  }

  /** The test hooks' last runs, as {@code status.history} keeps them. */
  private static TestRun run(int version, List<ReleaseHook> tests) {
    Map<String, TestHookStatus> hooks = new LinkedHashMap<>();
    for (ReleaseHook h : tests) {
      ReleaseHook.Execution last = h.lastRun();
      if (last != null && last.phase() != null && !last.phase().isEmpty()) {
        hooks.put(
            h.name(),
            new TestHookStatus(
                emptyToNull(last.startedAt()), emptyToNull(last.completedAt()), last.phase()));
      }
    }
    return new TestRun(version, hooks);
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  private static Optional<ReleaseHook> first(List<ReleaseHook> tests, HookPhase phase) {
    return tests.stream().filter(h -> HookPhase.of(h) == phase).findFirst();
  }

  private static String passed(int count) {
    if (count == 0) {
      return "no test hooks";
    }
    return count + (count == 1 ? " test hook" : " test hooks") + " completed successfully";
  }
}
