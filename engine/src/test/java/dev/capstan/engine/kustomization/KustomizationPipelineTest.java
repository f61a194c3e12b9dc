package dev.capstan.engine.kustomization;

import static dev.capstan.engine.kustomization.PipelineFakes.WAIT_POLL;
import static dev.capstan.engine.kustomization.PipelineFakes.ids;
import static dev.capstan.engine.kustomization.PipelineFakes.inventory;
import static dev.capstan.engine.kustomization.PipelineFakes.kustomization;
import static dev.capstan.engine.kustomization.PipelineFakes.ref;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.applier.apply.ApplyResult;
import dev.capstan.applier.apply.DriftPolicy;
import dev.capstan.applier.common.Action;
import dev.capstan.applier.common.ObjectResult;
import dev.capstan.applier.ignore.JsonPointer;
import dev.capstan.applier.inventory.InventorySet;
import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.applier.prune.Pruner;
import dev.capstan.engine.conditions.ConditionTypes;
import dev.capstan.engine.conditions.KustomizationStatuses;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.pipeline.Backoff;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.kube.ObjectRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The decisions of one reconcile, with the cluster played by {@link PipelineFakes}. */
class KustomizationPipelineTest {
  private static final ObjectRef WEB = ref("Deployment", "web");
  private static final ObjectRef SETTINGS = ref("ConfigMap", "settings");
  private static final ObjectRef OLD = ref("ConfigMap", "old");

  private final PipelineFakes fakes = new PipelineFakes();

  @AfterEach
  void close() {
    fakes.close();
  }

  // ---- the build ----------------------------------------------------------------------------

  /** Workers started without Landlock stand for a kernel without it. */
  @Test
  void anEngineAllowedToBuildUnconfinedSaysSoOnReady() {
    BuildSandbox unconfined =
        new BuildSandbox(
                PipelineFakes.sandbox().root(),
                BuildSandbox.Confinement.ALLOWED_UNCONFINED,
                PipelineFakes.sandbox().workerCache(),
                true)
            .withoutLandlock();
    try (PipelineFakes own =
        new PipelineFakes(new ManifestBuilder(BuildLimits.engine(1), unconfined))) {
      Kustomization ks = kustomization();
      own.live("Deployment/web", "ready");
      own.live("ConfigMap/settings", "ready");
      assertEquals(Outcome.Kind.SUCCEEDED, own.pipeline.reconcile(ks).kind());
      assertEquals(
          "Applied revision: "
              + own.revision()
              + "; built without the kernel's sandbox (Landlock was not entered"
              + " (--test-skip-landlock): only the worker's own file system keeps builds below the"
              + " root; its system call filter is in force (no sockets, no programs))",
          ready(ks).getMessage());
    }
  }

  @Test
  void anEngineThatRequiresTheSandboxBuildsNothingWithoutIt() {
    BuildSandbox required =
        new BuildSandbox(
                PipelineFakes.sandbox().root(),
                BuildSandbox.Confinement.REQUIRED,
                PipelineFakes.sandbox().workerCache(),
                true)
            .withoutLandlock();
    try (PipelineFakes own =
        new PipelineFakes(new ManifestBuilder(BuildLimits.engine(1), required))) {
      Kustomization ks = kustomization();
      assertEquals(Outcome.Kind.TERMINAL, own.pipeline.reconcile(ks).kind());
      Condition ready = ready(ks);
      assertEquals("BuildFailed", ready.getReason());
      assertTrue(ready.getMessage().contains("--allow-unconfined-builds"), ready.getMessage());
      assertTrue(own.applies.isEmpty());
    }
  }

  /**
   * Hostile nesting that reaches recursive code anywhere in a reconcile runs it out of stack: the
   * reconcile ends stalled with a message that names no input, and writes nothing else.
   */
  @Test
  void aReconcileThatRunsOutOfStackStallsNamingNoInput() {
    Map<String, Object> hostile = new HashMap<>();
    hostile.put("nested", hostile);
    hostile.put("secret", "do-not-echo");
    fakes.applying =
        request -> {
          depth(hostile);
          throw new AssertionError("a self-containing map has no depth");
        };
    Kustomization ks = kustomization();

    Outcome outcome =
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> fakes.pipeline.reconcile(ks));

    assertEquals(Outcome.Kind.TERMINAL, outcome.kind());
    Condition ready = ready(ks);
    assertEquals("False", ready.getStatus());
    assertEquals("BuildFailed", ready.getReason());
    assertEquals(
        "the Kustomization, its source or its objects nests too deeply to be processed",
        ready.getMessage());
    assertFalse(ks.getStatus().toString().contains("do-not-echo"));
  }

  /** Walks a self-containing map the way a naive reader walks nested input: it never ends. */
  private static int depth(Object node) {
    return node instanceof Map<?, ?> map ? 1 + depth(map.get("nested")) : 0;
  }

  // ---- the wait -----------------------------------------------------------------------------

  @Test
  void aWaitInProgressRequeuesAtThePollAndDoesNotApplyAgainUntilHealthy() {
    Kustomization ks = kustomization();
    fakes.live("Deployment/web", "rolling");
    fakes.live("ConfigMap/settings", "ready");

    Outcome first = fakes.pipeline.reconcile(ks);
    assertEquals(Outcome.Kind.WAITING, first.kind());
    assertEquals(Optional.of(WAIT_POLL), first.requeueAfter());
    Condition ready = ready(ks);
    assertEquals("Unknown", ready.getStatus());
    assertTrue(
        ready
            .getMessage()
            .startsWith(
                "Applied revision "
                    + fakes.revision()
                    + ", waiting for: Deployment/team/web is InProgress"),
        ready.getMessage());

    fakes.clock.advance(Duration.ofSeconds(30));
    assertEquals(Outcome.Kind.WAITING, fakes.pipeline.reconcile(ks).kind());
    fakes.live("Deployment/web", "ready");
    Outcome done = fakes.pipeline.reconcile(ks);

    assertEquals(Outcome.Kind.SUCCEEDED, done.kind());
    assertEquals(Optional.of(Duration.ofMinutes(10)), done.requeueAfter());
    assertEquals(1, fakes.applies.size(), "the wait looked again without applying again");
    assertEquals("True", ready(ks).getStatus());
    assertEquals(fakes.revision(), ks.getStatus().lastAppliedRevision());
    assertEquals(List.of(true), fakes.healthWaits);
  }

  /** Without a wait, Ready and Healthy come in one status write, from the applies' answers. */
  @Test
  void withoutAWaitTheAppliesAnswersTellHealthyOnTheStatusThatSaysReady() {
    Kustomization ks = kustomization("wait: false");
    fakes.live("Deployment/web", "rolling");
    fakes.live("ConfigMap/settings", "ready");
    fakes.applying = fakes::allCreatedAnsweringLive;

    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind());

    assertEquals("True", ready(ks).getStatus());
    Condition healthy = healthy(ks).orElseThrow();
    assertEquals("Unknown", healthy.getStatus());
    assertEquals("Progressing", healthy.getReason());
    assertTrue(
        healthy.getMessage().startsWith("Deployment/team/web is InProgress"), healthy.getMessage());
    assertEquals(1, fakes.told.size());
    assertEquals(healthy.getMessage(), fakes.told.get(0).orElseThrow().message());
  }

  /** An object the apply did not write was not read whole: its health is the monitor's to tell. */
  @Test
  void withoutAWaitAnObjectTheApplyDidNotAnswerLeavesHealthyToTheMonitor() {
    Kustomization ks = kustomization("wait: false");
    fakes.live("ConfigMap/settings", "ready");
    fakes.applying = fakes::allCreatedAnsweringLive; // the Deployment has no live object

    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind());

    assertEquals("True", ready(ks).getStatus());
    assertEquals(Optional.empty(), healthy(ks));
    assertEquals(List.of(Optional.empty()), fakes.told);
  }

  /** With a wait, the wait tells Healthy, and the monitor starts before it. */
  @Test
  void aWaitTellsTheMonitorNothingWrittenBeforeItStarts() {
    Kustomization ks = kustomization();
    fakes.live("Deployment/web", "ready");
    fakes.live("ConfigMap/settings", "ready");
    fakes.applying = fakes::allCreatedAnsweringLive;

    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind());

    assertEquals("True", healthy(ks).orElseThrow().getStatus());
    assertEquals(List.of(Optional.empty()), fakes.told);
  }

  @Test
  void aMissingObjectIsNotFoundAndKeepsTheWaitGoingUntilTheTimeout() {
    Kustomization ks = kustomization();
    fakes.live("Deployment/web", "ready");

    assertEquals(Outcome.Kind.WAITING, fakes.pipeline.reconcile(ks).kind());
    fakes.clock.advance(Duration.ofMinutes(4).plusSeconds(59));
    Outcome last = fakes.pipeline.reconcile(ks);
    assertEquals(Outcome.Kind.WAITING, last.kind());
    assertEquals(
        Optional.of(Duration.ofSeconds(1)), last.requeueAfter(), "no later than the deadline");
    fakes.clock.advance(Duration.ofSeconds(1));
    Outcome timedOut = fakes.pipeline.reconcile(ks);

    assertEquals(Outcome.Kind.TRANSIENT, timedOut.kind());
    Condition ready = ready(ks);
    assertEquals("False", ready.getStatus());
    assertEquals("HealthCheckFailed", ready.getReason());
    assertEquals(
        "timeout waiting for: ConfigMap/team/settings is NotFound: not found", ready.getMessage());
    assertEquals(List.of(false), fakes.healthWaits);
  }

  @Test
  void aFailedObjectEndsTheWaitAtOnce() {
    Kustomization ks = kustomization();
    fakes.live("Deployment/web", "stuck");
    fakes.live("ConfigMap/settings", "ready");

    Outcome outcome = fakes.pipeline.reconcile(ks);

    assertEquals(Outcome.Kind.TRANSIENT, outcome.kind());
    assertEquals("HealthCheckFailed", ready(ks).getReason());
    assertTrue(
        ready(ks).getMessage().startsWith("health check failed: Deployment/team/web is Failed"),
        ready(ks).getMessage());
  }

  @Test
  void aNewGenerationReplacesTheWaitInProgress() {
    Kustomization ks = kustomization();
    fakes.live("Deployment/web", "rolling");
    fakes.live("ConfigMap/settings", "ready");
    fakes.pipeline.reconcile(ks);

    ks.getMetadata().setGeneration(2L);
    fakes.pipeline.reconcile(ks);

    assertEquals(2, fakes.applies.size());
  }

  @Test
  void withoutWaitNothingIsWaitedFor() {
    Kustomization ks = kustomization("wait: false");
    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind());
    assertEquals(List.of(), fakes.healthWaits);
  }

  // ---- announce -----------------------------------------------------------------------------

  @Test
  void aRepeatOfWhatIsAppliedIsNotAnnouncedAsProgressing() {
    Kustomization ks = kustomization();
    healthy();
    fakes.pipeline.reconcile(ks);
    assertEquals("True", ready(ks).getStatus());
    int writes = fakes.written.size();

    fakes.clock.advance(Duration.ofMinutes(10));
    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind());

    assertTrue(
        fakes.written.subList(writes, fakes.written.size()).stream().noneMatch(this::progressing),
        "Ready stayed True throughout the repeat");
  }

  @Test
  void aReconcileRequestOrANewGenerationIsAnnounced() {
    Kustomization ks = kustomization();
    healthy();
    fakes.pipeline.reconcile(ks);

    ks.getMetadata()
        .setAnnotations(Map.of(KustomizationPipeline.REQUESTED_AT, "2026-01-01T00:05:00Z"));
    int writes = fakes.written.size();
    fakes.pipeline.reconcile(ks);
    assertTrue(
        fakes.written.subList(writes, fakes.written.size()).stream().anyMatch(this::progressing));

    ks.getMetadata().setGeneration(2L);
    writes = fakes.written.size();
    fakes.pipeline.reconcile(ks);
    assertTrue(
        fakes.written.subList(writes, fakes.written.size()).stream().anyMatch(this::progressing));
  }

  @Test
  void aFailedPreviousAttemptIsNotARepeat() {
    Kustomization ks = kustomization();
    healthy();
    fakes.applying =
        r ->
            new ApplyResult(
                List.of(new ObjectResult(WEB, Action.FAILED, "refused")), InventorySet.EMPTY);
    fakes.pipeline.reconcile(ks);
    fakes.applying = PipelineFakes::allCreated;
    int writes = fakes.written.size();

    fakes.pipeline.reconcile(ks);

    assertTrue(
        fakes.written.subList(writes, fakes.written.size()).stream().anyMatch(this::progressing));
  }

  // ---- the artifact after a restart -----------------------------------------------------------

  /**
   * An engine restarted on an empty store: until the source is fetched into it, the Kustomization
   * waits and writes nothing, so its status keeps saying what was applied rather than turning every
   * Kustomization to ArtifactFailed on every restart.
   */
  @Test
  void anArtifactOnItsWayIntoANewStoreIsWaitedForWithoutAWrite() {
    Kustomization ks = kustomization();
    healthy();
    fakes.pipeline.reconcile(ks);
    assertEquals("True", ready(ks).getStatus());
    int writes = fakes.written.size();

    fakes.storeEmpty = true;
    fakes.sourcesOnTheirWay = true;
    assertEquals(
        Outcome.waiting(ArtifactLookup.ON_ITS_WAY_POLL), fakes.pipeline.reconcile(ks), "waits");
    assertEquals(writes, fakes.written.size(), "nothing written");
    assertEquals("True", ready(ks).getStatus());

    fakes.storeEmpty = false;
    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind(), "stored: goes on");
  }

  @Test
  void anArtifactMissingOnceItsSourceWasFetchedHereIsAFailure() {
    Kustomization ks = kustomization();
    healthy();
    fakes.pipeline.reconcile(ks);

    fakes.storeEmpty = true;
    assertEquals(Outcome.Kind.TRANSIENT, fakes.pipeline.reconcile(ks).kind());
    assertEquals("ArtifactFailed", ready(ks).getReason());
    assertTrue(ready(ks).getMessage().endsWith("is not in local storage"), ready(ks).getMessage());
  }

  // ---- the inventory kept -------------------------------------------------------------------

  @Test
  void aPartialApplyKeepsThePreviousInventoryAndAddsWhatWasWritten() {
    Kustomization ks = withInventory(kustomization(), OLD);
    fakes.applying =
        r ->
            new ApplyResult(
                List.of(
                    ObjectResult.of(SETTINGS, Action.CREATED),
                    new ObjectResult(WEB, Action.FAILED, "refused")),
                InventorySet.of(List.of(WEB, SETTINGS)));

    Outcome outcome = fakes.pipeline.reconcile(ks);

    assertEquals(Outcome.Kind.TRANSIENT, outcome.kind());
    assertEquals("ApplyFailed", ready(ks).getReason());
    assertEquals(ids(inventory(OLD, SETTINGS)), ids(ks.getStatus().inventory()));
  }

  @Test
  void objectsSkippedByAFailedApplyAreNotAddedToTheInventory() {
    Kustomization ks = withInventory(kustomization(), OLD);
    fakes.applying =
        r ->
            new ApplyResult(
                List.of(
                    new ObjectResult(SETTINGS, Action.SKIPPED, "not applied"),
                    new ObjectResult(WEB, Action.FAILED, "refused")),
                InventorySet.of(List.of(WEB, SETTINGS)));

    fakes.pipeline.reconcile(ks);

    assertEquals(ids(inventory(OLD)), ids(ks.getStatus().inventory()));
  }

  @Test
  void anApplyCutShortKeepsThePreviousInventory() {
    Kustomization ks = withInventory(kustomization(), OLD, WEB);
    fakes.applying =
        r -> {
          throw new KubernetesClientException("connection reset");
        };

    assertEquals(Outcome.Kind.TRANSIENT, fakes.pipeline.reconcile(ks).kind());

    assertEquals("ApplyFailed", ready(ks).getReason());
    assertEquals(ids(inventory(OLD, WEB)), ids(ks.getStatus().inventory()));
  }

  @Test
  void aPruneFailureKeepsTheObjectsItCouldNotDelete() {
    ObjectRef gone = ref("ConfigMap", "gone");
    Kustomization ks = withInventory(kustomization(), OLD, gone, WEB);
    fakes.pruning =
        refs ->
            refs.stream()
                .map(
                    r ->
                        r.equals(OLD)
                            ? new ObjectResult(r, Action.FAILED, "forbidden")
                            : ObjectResult.of(r, Action.DELETED))
                .toList();

    Outcome outcome = fakes.pipeline.reconcile(ks);

    assertEquals(Outcome.Kind.TRANSIENT, outcome.kind());
    assertEquals("PruneFailed", ready(ks).getReason());
    assertEquals("prune failed: ConfigMap/team/old: forbidden", ready(ks).getMessage());
    assertEquals(ids(inventory(OLD, SETTINGS, WEB)), ids(ks.getStatus().inventory()));
  }

  @Test
  void aSuccessfulApplyAndPruneKeepsExactlyTheRevision() {
    Kustomization ks = withInventory(kustomization("wait: false"), OLD, WEB);
    fakes.pipeline.reconcile(ks);
    assertEquals(ids(inventory(SETTINGS, WEB)), ids(ks.getStatus().inventory()));
  }

  @Test
  void aKustomizationCachedBeforeItsLastStatusWriteIsReconciledAsWritten() {
    // the last status write recorded OLD; the cache has not seen that write yet
    Kustomization written = withInventory(kustomization("wait: false"), OLD, SETTINGS, WEB);
    written.getMetadata().setResourceVersion("5");
    fakes.lastWritten.put(NamespacedName.of(written), written);
    Kustomization cached = withInventory(kustomization("wait: false"), SETTINGS, WEB);
    cached.getMetadata().setResourceVersion("4");
    List<ObjectRef> pruned = new ArrayList<>();
    fakes.pruning =
        refs -> {
          pruned.addAll(refs);
          return refs.stream().map(r -> ObjectResult.of(r, Action.DELETED)).toList();
        };

    fakes.pipeline.reconcile(cached);

    assertEquals(List.of(OLD), pruned, "what the last write recorded and the revision no more");
    assertEquals(ids(inventory(SETTINGS, WEB)), ids(written.getStatus().inventory()));
  }

  // ---- ignore rules and drift ------------------------------------------------------------------

  @Test
  void ignoreRulesGoToTheApplyCompiled() {
    Kustomization ks =
        kustomization(
            "ignore: [{paths: [/spec/replicas], target: {kind: Deployment}}]", "wait: false");
    fakes.pipeline.reconcile(ks);
    var request = fakes.applies.get(0);
    assertEquals(
        List.of(JsonPointer.parse("/spec/replicas")),
        request.ignore().pointersFor(WEB, Map.of(), Map.of()));
    assertEquals(List.of(), request.ignore().pointersFor(SETTINGS, Map.of(), Map.of()));
  }

  @Test
  void anIgnoreRuleThatCannotBeUsedStallsNamingWhereItIs() {
    Kustomization ks = kustomization("ignore: [{paths: [spec/replicas]}]");

    assertEquals(Outcome.Kind.TERMINAL, fakes.pipeline.reconcile(ks).kind());

    assertEquals("InvalidSpec", ready(ks).getReason());
    assertEquals(
        "spec.ignore[0].paths[0]: is not a JSON Pointer: it must start with '/'",
        ready(ks).getMessage());
    assertTrue(fakes.applies.isEmpty());
  }

  @Test
  void onlyAKustomizationWithoutAnInventoryAppliesAsAFirstApply() {
    Kustomization ks = kustomization("prune: false", "wait: false");
    fakes.pipeline.reconcile(ks);
    assertTrue(fakes.applies.get(0).firstApply(), "nothing applied before: nothing to look for");

    ks.getMetadata().setGeneration(2L);
    fakes.pipeline.reconcile(ks);
    assertFalse(
        fakes.applies.get(1).firstApply(), "its objects are looked for once it has an inventory");

    Kustomization applied = withInventory(kustomization(), OLD);
    fakes.pipeline.reconcile(applied);
    assertFalse(fakes.applies.get(2).firstApply());
  }

  @Test
  void driftIsLookedForInWhatWasAppliedAtThisRevisionAndSpecOnly() {
    Kustomization ks = kustomization("driftDetection: {mode: warn}", "wait: false");
    fakes.pipeline.reconcile(ks);
    assertEquals(DriftPolicy.Mode.REPORT, fakes.applies.get(0).drift().mode());
    assertTrue(fakes.applies.get(0).drift().expected().isEmpty(), "a first apply creates all");

    fakes.pipeline.reconcile(ks);
    assertTrue(fakes.applies.get(1).drift().expects(WEB), "the same revision and spec");

    ks.getMetadata().setGeneration(2L);
    fakes.pipeline.reconcile(ks);
    assertTrue(fakes.applies.get(2).drift().expected().isEmpty(), "a new spec creates all");
  }

  @Test
  void driftReportedByTheApplyIsTheDriftedConditionAndReadyStaysTrue() {
    Kustomization ks = kustomization("driftDetection: {mode: warn}", "wait: false");
    fakes.applying =
        r ->
            new ApplyResult(
                List.of(
                    ObjectResult.of(SETTINGS, Action.UNCHANGED),
                    new ObjectResult(
                        WEB,
                        Action.DRIFTED,
                        "changed in the cluster: /spec/replicas",
                        List.of("/spec/replicas"))),
                InventorySet.of(List.of(WEB, SETTINGS)));

    assertEquals(Outcome.Kind.SUCCEEDED, fakes.pipeline.reconcile(ks).kind());

    Condition drifted =
        KustomizationStatuses.condition(ks.getStatus(), ConditionTypes.DRIFTED).orElseThrow();
    assertEquals("True", drifted.getStatus());
    assertEquals("1 object drifted: Deployment/team/web: /spec/replicas", drifted.getMessage());
    assertEquals("True", ready(ks).getStatus());
    assertEquals(ids(inventory(SETTINGS, WEB)), ids(ks.getStatus().inventory()));
  }

  @Test
  void withoutWarnThereIsNoDriftedCondition() {
    Kustomization ks = kustomization("wait: false");
    fakes.pipeline.reconcile(ks);
    assertEquals(DriftPolicy.Mode.CORRECT, fakes.applies.get(0).drift().mode());
    assertTrue(KustomizationStatuses.condition(ks.getStatus(), ConditionTypes.DRIFTED).isEmpty());
  }

  // ---- deletion -----------------------------------------------------------------------------

  @Test
  void aRefusedDeletionKeepsTheKustomizationWithTheObjectsLeftAndIsTriedAgain() {
    Kustomization ks = deleted(withInventory(kustomization(), OLD, WEB));
    fakes.deleting =
        refs ->
            List.of(
                ObjectResult.of(WEB, Action.DELETED),
                new ObjectResult(OLD, Action.FAILED, "denied by policy protect"));

    Deletion first = fakes.pipeline.delete(ks);

    assertFalse(first.done());
    assertEquals(Optional.of(Duration.ofSeconds(1)), first.again());
    assertEquals("PruneFailed", ready(ks).getReason());
    assertEquals(
        "deleting its objects failed: ConfigMap/team/old: denied by policy protect",
        ready(ks).getMessage());
    assertEquals(ids(inventory(OLD)), ids(ks.getStatus().inventory()));

    fakes.deleting = refs -> refs.stream().map(r -> ObjectResult.of(r, Action.DELETED)).toList();
    assertTrue(fakes.pipeline.delete(ks).done());
    assertEquals(
        List.of(
            "ConfigMap/team/old within PT5M",
            "Deployment/team/web within PT5M",
            "ConfigMap/team/old within PT5M"),
        fakes.deletions,
        "only what was left is tried again");
  }

  @Test
  void objectsStillTerminatingAfterTheTimeoutAreReportedAndLetGo() {
    Kustomization ks = deleted(withInventory(kustomization(), WEB));
    fakes.deleting =
        refs -> List.of(new ObjectResult(WEB, Action.FAILED, Pruner.STILL_TERMINATING + "PT5M"));
    assertTrue(fakes.pipeline.delete(ks).done());
    assertEquals("PruneFailed", ready(ks).getReason());
  }

  @Test
  void aDependencyDeletesItsObjectsOnlyAfterItsDependentsBeingDeletedAreGone() {
    Kustomization infra = deleted(withInventory(kustomization(), WEB));
    Kustomization apps = deleted(other("apps", "dependsOn: [{name: app}]"));
    fakes.others.put(new NamespacedName("team", "app"), infra);
    fakes.others.put(new NamespacedName("team", "apps"), apps);

    Deletion waiting = fakes.pipeline.delete(infra);

    assertEquals(Optional.of(WAIT_POLL), waiting.again());
    assertEquals(List.of(), fakes.deletions);
    assertEquals("WaitingForDependents", ready(infra).getReason());
    assertEquals(
        "waiting for the Kustomizations that depend on it to be deleted first: team/apps",
        ready(infra).getMessage());
    assertEquals(
        "True",
        KustomizationStatuses.condition(infra.getStatus(), ConditionTypes.RECONCILING)
            .orElseThrow()
            .getStatus());

    fakes.others.remove(new NamespacedName("team", "apps"));
    assertTrue(fakes.pipeline.delete(infra).done());
    assertEquals(List.of("Deployment/team/web within PT5M"), fakes.deletions);
    assertEquals(List.of(false), fakes.terminationWaits);
  }

  @Test
  void aDependentWhoseDependencyIsBeingDeletedWaitsUntilItsObjectsAreGone() {
    Kustomization apps = deleted(withInventory(kustomization("dependsOn: [{name: infra}]"), WEB));
    fakes.others.put(new NamespacedName("team", "infra"), deleted(other("infra", "wait: true")));
    assertTrue(fakes.pipeline.delete(apps).done());
    assertEquals(List.of(true), fakes.terminationWaits);
  }

  @Test
  void aDependentThatIsNotDeletedIsGivenTimeThenNotWaitedForAndThatIsSaid() {
    Kustomization infra = deleted(withInventory(kustomization(), WEB));
    fakes.others.put(new NamespacedName("team", "apps"), other("apps", "dependsOn: [{name: app}]"));

    assertFalse(fakes.pipeline.delete(infra).done());
    fakes.clock.advance(DependentsWait.SETTLE);
    assertTrue(fakes.pipeline.delete(infra).done());

    assertEquals("DependentsNotDeleted", ready(infra).getReason());
    assertEquals(
        "deleting its objects although team/apps, which depends on it, is not being deleted",
        ready(infra).getMessage());
  }

  private static Kustomization deleted(Kustomization ks) {
    ks.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
    return ks;
  }

  /** Another Kustomization of the namespace, named {@code name}, with these spec lines. */
  private static Kustomization other(String name, String... specLines) {
    Kustomization ks = kustomization(specLines);
    ks.getMetadata().setName(name);
    return ks;
  }

  // ---- failures outside the stages' own --------------------------------------------------------

  @Test
  void aKustomizationWithZeroDurationsCanBeDeleted() {
    // The CRD admits 0s; the reconcile stalls on it, the deletion must not.
    Kustomization ks = withInventory(kustomization("interval: 0s", "timeout: 0s"), WEB);
    fakes.pipeline.delete(ks);
    assertEquals(List.of("Deployment/team/web within PT1M"), fakes.deletions);
  }

  @Test
  void theTimeoutOfTheSpecBoundsADeletion() {
    Kustomization ks = withInventory(kustomization("interval: 0s", "timeout: 30s"), WEB);
    fakes.pipeline.delete(ks);
    assertEquals(List.of("Deployment/team/web within PT30S"), fakes.deletions);
  }

  @Test
  void anUnexpectedExceptionIsATransientFailureWithItsOwnReason() {
    Kustomization ks = kustomization();
    fakes.applying =
        r -> {
          throw new IllegalStateException("index 7 of secret-looking input");
        };

    Outcome outcome = fakes.pipeline.reconcile(ks);

    assertEquals(Outcome.Kind.TRANSIENT, outcome.kind());
    assertEquals(
        Optional.of(new Backoff(Duration.ofSeconds(1)).delay(1, Duration.ofMinutes(2))),
        outcome.requeueAfter());
    assertEquals(List.of(Outcome.Kind.TRANSIENT), fakes.observed, "counted in metrics");
    Condition ready = ready(ks);
    assertEquals("False", ready.getStatus());
    assertEquals("InternalError", ready.getReason());
    assertEquals(
        "reconciliation failed with an unexpected error (IllegalStateException); the engine's log"
            + " has the details",
        ready.getMessage());
  }

  @Test
  void waitingForADependencyIsItsOwnOutcome() {
    Kustomization ks = kustomization("dependsOn: [{name: infra}]");

    Outcome outcome = fakes.pipeline.reconcile(ks);

    assertEquals(Outcome.Kind.DEPENDENCY_NOT_READY, outcome.kind());
    assertEquals(Optional.of(Duration.ofMinutes(2)), outcome.requeueAfter());
    assertEquals(List.of(Outcome.Kind.DEPENDENCY_NOT_READY), fakes.observed);
    assertEquals("DependencyNotReady", ready(ks).getReason());
    assertEquals(0, fakes.applies.size());
  }

  /** The cycle check follows the Kustomization's own chain in the cache, wherever it leads. */
  @Test
  void aCycleThroughItsOwnChainIsTerminalAndOneElsewhereIsNot() {
    Kustomization ks = kustomization("dependsOn: [{name: infra}]");
    fakes.others.put(new NamespacedName("team", "app"), ks);
    fakes.others.put(
        new NamespacedName("team", "infra"), other("infra", "dependsOn: [{name: base}]"));
    fakes.others.put(new NamespacedName("team", "base"), other("base", "dependsOn: [{name: app}]"));
    fakes.others.put(new NamespacedName("team", "x"), other("x", "dependsOn: [{name: y}]"));
    fakes.others.put(new NamespacedName("team", "y"), other("y", "dependsOn: [{name: x}]"));

    assertEquals(Outcome.Kind.TERMINAL, fakes.pipeline.reconcile(ks).kind());
    assertEquals("DependencyCycle", ready(ks).getReason());
    assertEquals(
        "dependency cycle: team/app -> team/infra -> team/base -> team/app",
        ready(ks).getMessage());

    fakes.others.put(new NamespacedName("team", "base"), other("base"));
    assertEquals(Outcome.Kind.DEPENDENCY_NOT_READY, fakes.pipeline.reconcile(ks).kind());
  }

  // ---- helpers ------------------------------------------------------------------------------

  private void healthy() {
    fakes.live("Deployment/web", "ready");
    fakes.live("ConfigMap/settings", "ready");
  }

  private boolean progressing(KustomizationStatus status) {
    return KustomizationStatuses.condition(status, ConditionTypes.READY)
        .map(c -> "Unknown".equals(c.getStatus()))
        .orElse(false);
  }

  private static Condition ready(Kustomization ks) {
    return KustomizationStatuses.condition(ks.getStatus(), ConditionTypes.READY).orElseThrow();
  }

  private static Optional<Condition> healthy(Kustomization ks) {
    return KustomizationStatuses.condition(ks.getStatus(), ConditionTypes.HEALTHY);
  }

  private static Kustomization withInventory(Kustomization ks, ObjectRef... refs) {
    ks.setStatus(new KustomizationStatus(null, List.of(), null, null, null, inventory(refs)));
    return ks;
  }
}
