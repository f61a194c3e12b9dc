package dev.capstan.engine.conditions;

import dev.capstan.api.helm.HelmReleaseStatus.ReleaseAction;
import dev.capstan.api.helm.ReleaseSnapshot;
import dev.capstan.api.kustomize.Inventory;
import dev.capstan.health.AggregateHealth;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one reconcile of a HelmRelease saw, for {@link HelmReleaseStatuses#next}.
 *
 * @param generation the HelmRelease's generation
 * @param now when the status is written
 * @param handledRequestedAt the reconcile request handled, if any
 * @param attempted what this reconcile worked from; null when it did not get as far as the chart
 *     and values (the last attempt's stay)
 * @param released the release record this reconcile wrote (deployed or failed); null for none
 * @param phase how the reconcile ended
 * @param health the release's objects' health, when looked at; null otherwise
 * @param healthState where that health leaves a wait for it
 * @param inventory the objects of the release now in the cluster; null leaves the last one
 * @param helmChart {@code namespace/name} of the HelmChart made for spec.chart, if any
 * @param storageNamespace where the release records are
 * @param maxHistory how many snapshots {@code status.history} keeps at most
 * @param renderDigests the digests of the post-renderers and commonMetadata a release was just made
 *     with; null leaves the ones last observed
 * @param drift what a look for drift at the release's objects found and did; null (or {@link
 *     DriftNotLooked}) when there was no look (the Drifted condition stays as it was)
 * @param tests where the Helm tests of the deployed release stand; null (or {@link TestsNotLooked})
 *     keeps the TestSuccess condition as it was
 */
@RecordBuilder
public record ReleaseObservation(
    long generation,
    Instant now,
    String handledRequestedAt,
    Attempted attempted,
    ReleaseSnapshot released,
    ReleasePhase phase,
    AggregateHealth health,
    HealthState healthState,
    Inventory inventory,
    String helmChart,
    String storageNamespace,
    int maxHistory,
    RenderDigests renderDigests,
    DriftSeen drift,
    TestSeen tests)
    implements ReleaseObservationBuilder.With {

  /**
   * The inputs of an attempt: the chart's version and artifact digest, the values' digest and SHA-1
   * checksum, and whether it installs or upgrades (null when nothing was released).
   */
  public record Attempted(
      String revision,
      String revisionDigest,
      String configDigest,
      String valuesChecksum,
      ReleaseAction action,
      Duration actionDuration) {}

  /**
   * The digests of {@code spec.postRenderers} and {@code spec.commonMetadata} (Flux's {@code
   * observedPostRenderersDigest} and {@code observedCommonMetadataDigest}); null for none.
   */
  public record RenderDigests(String postRenderers, String commonMetadata) {}

  /** Where a look at the health of the release's objects leaves its wait. */
  public enum HealthState {
    CURRENT,
    IN_PROGRESS,
    FAILED,
    TIMED_OUT,
    /**
     * Objects progress after the wait for them ended: Healthy False with reason Progressing
     * (Unknown is a reconcile's pending wait), Ready as when Current; a wait is never reopened by
     * it.
     */
    UNSETTLED
  }

  /** How a reconcile of a HelmRelease ended. */
  public sealed interface ReleasePhase {}

  /** A new release record was deployed: Released is True with {@code message}. */
  public record Released(ReleaseReason reason, String message) implements ReleasePhase {}

  /** Nothing changed: nothing was released; Ready follows the health of what is deployed. */
  public record Unchanged() implements ReleasePhase {}

  /**
   * The reconcile failed; {@code releaseFailed} when an install or upgrade failed (Released is
   * False and a failure of the action is counted), not when it did not start.
   */
  public record Failed(ReleaseReason reason, String message, boolean releaseFailed)
      implements ReleasePhase {}

  /**
   * The wait for the objects of a new release ended unhealthy ({@code spec.timeout} passed, or an
   * object failed): its install or upgrade failed ({@code reason}), Released is False and Ready
   * False with HealthCheckFailed; a failure of the action is counted.
   */
  public record WaitFailed(ReleaseReason reason, String message) implements ReleasePhase {}

  /**
   * A failed release was remediated, rolled back or uninstalled ({@code succeeded}), or its
   * remediation failed: the Remediated condition with {@code reason}, Ready False.
   */
  public record Remediated(ReleaseReason reason, String message, boolean succeeded)
      implements ReleasePhase {}

  /**
   * The release the status recorded was uninstalled because the spec names another target (release
   * name, target or storage namespace, chart name), as Flux does first: Released and Ready False
   * (UninstallSucceeded) with {@code message}, Healthy Unknown with it (its objects are gone); the
   * history and the failure counters are cleared, and so is the storage namespace; the next
   * reconcile, at once, installs at the new target.
   */
  public record Retargeted(String message) implements ReleasePhase {}

  /** No retry remains: Stalled with {@code reason} until the spec's generation changes. */
  public record Stalled(ReleaseReason reason, String message) implements ReleasePhase {}

  /**
   * No reconcile: the health monitor saw the health of the released objects change between
   * reconciles. Healthy alone is written from it, as a Kustomization's; the rest stays.
   */
  public record LiveHealth() implements ReleasePhase {}

  /**
   * An install or upgrade waits for one of its hooks ({@code message} names it): its record stays
   * pending, Ready is Unknown (Progressing) and the reconcile looks again at the wait poll.
   */
  public record HookRunning(String message) implements ReleasePhase {}

  /** The reconcile waits for something it cannot change (the chart's source). */
  public record Waiting(ReleaseReason reason, String message) implements ReleasePhase {}

  /** What a look for drift ({@code spec.driftDetection}) at an unchanged release found and did. */
  public sealed interface DriftSeen {}

  /** Drift detection is disabled: nothing was compared, and there is no Drifted condition. */
  public record DriftOff() implements DriftSeen {}

  /** Not looked for this time (a release in progress, say): the Drifted condition is kept. */
  public record DriftNotLooked() implements DriftSeen {}

  /**
   * The look itself failed ({@code why}, naming what failed, never the API server's words or an
   * object's content): whether the release drifted is not known.
   */
  public record DriftLookFailed(String why) implements DriftSeen {}

  /** Mode warn: the objects another writer changed or deleted, left as they are. */
  public record DriftReported(List<Drift.DriftedObject> objects) implements DriftSeen {
    public DriftReported {
      objects = List.copyOf(objects);
    }
  }

  /**
   * Mode enabled: the drifted objects applied again ({@code corrected}), and those the API server
   * refused ({@code failed}).
   */
  public record DriftCorrected(
      List<Drift.DriftedObject> corrected, List<Drift.DriftedObject> failed) implements DriftSeen {
    public DriftCorrected {
      corrected = List.copyOf(corrected);
      failed = List.copyOf(failed);
    }
  }

  /** Where the Helm tests ({@code spec.test}) of the deployed release stand. */
  public sealed interface TestSeen {}

  /** Tests are not enabled: no TestSuccess condition. */
  public record TestsOff() implements TestSeen {}

  /** Not looked at this time (a release in progress): TestSuccess is kept. */
  public record TestsNotLooked() implements TestSeen {}

  /** The release waits for its tests to run: TestSuccess Unknown. */
  public record TestsPending(String message) implements TestSeen {}

  /** A test hook runs: TestSuccess Unknown, and a Ready that would be True is Unknown. */
  public record TestsRunning(String message) implements TestSeen {}

  /**
   * Every selected test hook succeeded (or there is none): TestSuccess True; the run is kept in the
   * version's entry of {@code status.history}, as Flux keeps every run's test hooks.
   */
  public record TestsPassed(String message, TestRun run) implements TestSeen {}

  /**
   * A test hook failed: TestSuccess False; unless {@code ignored}, Ready False with TestFailed. A
   * failure is counted, and one of the action too unless ignored, once per release version: the
   * status's history keeps the version's test hooks, and with them that it was counted.
   */
  public record TestsFailed(String message, boolean ignored, TestRun run) implements TestSeen {}

  /**
   * The test hooks of release {@code version} as they last ran, by name, for the version's entry in
   * {@code status.history}.
   */
  public record TestRun(int version, Map<String, ReleaseSnapshot.TestHookStatus> hooks) {
    public TestRun {
      hooks = Map.copyOf(hooks);
    }
  }
}
