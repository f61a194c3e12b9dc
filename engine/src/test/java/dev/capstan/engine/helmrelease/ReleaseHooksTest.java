package dev.capstan.engine.helmrelease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.api.helm.HelmRelease;
import dev.capstan.engine.conditions.HelmReleaseStatuses;
import dev.capstan.engine.pipeline.Outcome;
import dev.capstan.health.status.Status;
import dev.capstan.helm.release.ReleaseHook;
import dev.capstan.helm.release.ReleaseStatus;
import dev.capstan.kustomize.chart.ChartRender;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Install and upgrade hooks run as Helm runs them: in weight then name order, before or after the
 * objects, each waited on without holding the reconcile, with its delete policies, its last run in
 * the release record, and a failed or timed-out hook failing the release.
 */
class ReleaseHooksTest {
  private final ReleaseFakes fakes = new ReleaseFakes();
  private final HelmReleasePipeline pipeline = fakes.pipeline();

  @Test
  void preInstallHooksRunInWeightOrderBeforeTheObjectsAndTheReleaseWaitsForThem() {
    fakes.hooks = hooks("migrate", "seed");
    fakes.hookHealth.put("migrate", Status.InProgress);
    HelmRelease release = ReleaseFakes.release();

    Outcome waiting = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.WAITING, waiting.kind());
    // seed weighs -5: it runs first; before-hook-creation (the default) deletes each first
    assertEquals(
        List.of("-ConfigMap/seed", "ConfigMap/seed", "-Job/migrate", "Job/migrate"), fakes.writes);
    assertEquals(ReleaseStatus.PENDING_INSTALL, fakes.records.get(1).release().status());
    assertEquals(Map.of("seed", "Succeeded", "migrate", "Running"), phases());
    Condition ready = condition(release, "Ready");
    assertEquals("Unknown", ready.getStatus());
    assertEquals("Progressing", ready.getReason());
    assertTrue(ready.getMessage().contains("pre-install hook Job/migrate"), ready.getMessage());

    fakes.now = fakes.now.plusSeconds(20);
    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(release);

    assertEquals(
        List.of("Deployment/podinfo", "Service/podinfo"),
        fakes.writes.subList(4, fakes.writes.size()).stream()
            .filter(w -> !w.startsWith("-"))
            .sorted()
            .toList());
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals(Map.of("seed", "Succeeded", "migrate", "Succeeded"), phases());
    ReleaseHook.Execution run = hook("migrate").lastRun();
    assertEquals("2026-01-01T00:00:00Z", run.startedAt());
    assertEquals("2026-01-01T00:00:20Z", run.completedAt());
    assertEquals("True", condition(release, "Ready").getStatus());
    assertEquals(1, fakes.renders, "the wait renders nothing again");
  }

  @Test
  void aReleaseWithNoValuesGoesOnFromItsRecordOnceItsHookCompletes() {
    fakes.hooks = hooks("migrate");
    fakes.hookHealth.put("migrate", Status.InProgress);
    HelmRelease release = ReleaseFakes.release();
    ((ObjectNode) release.getSpec().values()).removeAll();
    pipeline.reconcile(release);

    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(release);

    assertEquals(List.of(1), List.copyOf(fakes.records.keySet()));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
  }

  @Test
  void hooksOfOneWeightRunByNameAndTheRendersOrderOtherwise() {
    List<ReleaseHook> hooks =
        ReleaseHooks.of(
            List.of(
                hook("b", "Job", 1, "pre-install"),
                hook("a", "Job", 1, "pre-install"),
                hook("z", "ConfigMap", -3, "pre-install"),
                hook("t", "Pod", 0, "test")));

    List<Integer> order = ReleaseHooks.order(hooks, HookEvent.PRE_INSTALL);

    assertEquals(List.of("z", "a", "b"), order.stream().map(i -> hooks.get(i).name()).toList());
  }

  @Test
  void aFailedPreInstallHookFailsTheInstallByNameAndIsDeletedByItsPolicy() {
    fakes.hooks = hooks("check");
    fakes.hookHealth.put("check", Status.Failed);
    HelmRelease release = ReleaseFakes.release();

    pipeline.reconcile(release);

    assertEquals(List.of("Job/check", "-Job/check"), fakes.writes);
    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    String description = fakes.records.get(1).release().info().description();
    assertTrue(description.contains("pre-install hook Job/check"), description);
    assertTrue(description.contains("BackoffLimitExceeded"), description);
    assertEquals(Map.of("check", "Failed"), phases());
    Condition ready = condition(release, "Ready");
    assertEquals("False", ready.getStatus());
    assertEquals("InstallFailed", ready.getReason());
    assertTrue(ready.getMessage().contains("Job/check"), ready.getMessage());
    assertEquals(1L, release.getStatus().installFailures());
  }

  @Test
  void aHookThatNeverCompletesFailsTheReleaseAtTheTimeout() {
    fakes.hooks = hooks("migrate");
    fakes.hookHealth.put("migrate", Status.InProgress);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    fakes.now = fakes.now.plus(Duration.ofMinutes(4));
    assertEquals(Outcome.Kind.WAITING, pipeline.reconcile(release).kind());
    fakes.now = fakes.now.plus(Duration.ofMinutes(2));
    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    assertTrue(
        fakes.records.get(1).release().info().description().contains("did not complete within"));
    assertEquals(Map.of("migrate", "Failed"), phases());
    assertEquals("InstallFailed", condition(release, "Ready").getReason());
    assertTrue(fakes.writes.stream().noneMatch(w -> w.startsWith("Deployment")));
  }

  @Test
  void postInstallHooksRunAfterTheObjectsAndAreDeletedOnceTheySucceed() {
    fakes.hooks = hooks("announce");
    fakes.hookHealth.put("announce", Status.InProgress);
    HelmRelease release = ReleaseFakes.release();

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.PENDING_INSTALL, fakes.records.get(1).release().status());
    assertEquals("Job/announce", fakes.writes.get(fakes.writes.size() - 1));
    assertTrue(fakes.writes.indexOf("Deployment/podinfo") < fakes.writes.indexOf("Job/announce"));
    int applied = fakes.applies;

    fakes.hookHealth.put("announce", Status.Current);
    pipeline.reconcile(release);

    assertEquals(applied, fakes.applies, "the objects are not applied again");
    assertEquals("-Job/announce", fakes.writes.get(fakes.writes.size() - 1));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals(2, release.getStatus().inventory().entries().size());
  }

  @Test
  void anUpgradeRunsThePreUpgradeHooksAlone() {
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    fakes.hooks = hooks("migrate", "seed");
    fakes.writes.clear();
    release.getMetadata().setGeneration(2L);
    fakes.chartVersion = "6.6.0";

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(2).release().status());
    assertTrue(fakes.writes.contains("Job/migrate"));
    assertTrue(fakes.writes.indexOf("Job/migrate") < fakes.writes.indexOf("Deployment/podinfo"));
    assertTrue(!fakes.writes.contains("ConfigMap/seed"), "seed is a pre-install hook only");
    assertEquals(Map.of("seed", "", "migrate", "Succeeded"), phases(2));
  }

  @Test
  void disableHooksRunsNoneButTheRecordKeepsThem() {
    fakes.hooks = hooks("migrate", "announce");
    HelmRelease disabled =
        new KubernetesSerialization()
            .unmarshal(
                ReleaseFakes.read("podinfo.yaml") + "  install: {disableHooks: true}\n",
                HelmRelease.class);

    pipeline.reconcile(disabled);

    assertTrue(
        fakes.writes.stream().noneMatch(w -> w.contains("migrate") || w.contains("announce")));
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals(Map.of("migrate", "", "announce", ""), phases());
  }

  @Test
  void aReleaseWaitingForAHookWhoseValuesChangedIsMarkedFailedAndReleasedAgain() {
    fakes.hooks = hooks("migrate");
    fakes.hookHealth.put("migrate", Status.InProgress);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);

    release.getMetadata().setGeneration(2L);
    ((ObjectNode) release.getSpec().values()).put("replicaCount", 3);
    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(2).release().status());
  }

  @Test
  void aJobInTheReleasesHealthCheckExprsDoesNotClashWithTheHookChecks() {
    fakes.hooks = hooks("migrate");
    HelmRelease release =
        new KubernetesSerialization()
            .unmarshal(
                ReleaseFakes.read("podinfo.yaml")
                    + "  healthCheckExprs:\n"
                    + "  - {apiVersion: batch/v1, kind: Job, current: 'true'}\n",
                HelmRelease.class);

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals(Map.of("migrate", "Succeeded"), phases());
    assertEquals("True", condition(release, "Ready").getStatus());
  }

  @Test
  void aCrdHookIsNeverDeletedWhateverItsPolicySays() {
    fakes.hooks = hooks("widgets.example.com", "migrate");
    HelmRelease release = ReleaseFakes.release();

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals(
        "CustomResourceDefinition/widgets.example.com",
        fakes.writes.get(0),
        "created without the before-hook-creation deletion first");
    assertTrue(fakes.writes.stream().noneMatch(w -> w.startsWith("-CustomResourceDefinition")));
    assertEquals(Map.of("widgets.example.com", "Succeeded", "migrate", "Succeeded"), phases());
  }

  @Test
  void aHookThatIsNeitherAJobNorAPodIsDoneOnceCreatedHowEverItsHealthReads() {
    fakes.hooks = hooks("seed", "widgets.example.com");
    fakes.hookHealth.put("seed", Status.InProgress);
    fakes.hookHealth.put("widgets.example.com", Status.Failed);
    HelmRelease release = ReleaseFakes.release();

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals(Map.of("seed", "Succeeded", "widgets.example.com", "Succeeded"), phases());
    assertEquals("True", condition(release, "Ready").getStatus());
  }

  @Test
  void eachHookWaitsTheTimeoutFromItsOwnCreationNotFromTheReleasesStart() {
    fakes.hooks = hooks("migrate", "announce");
    fakes.hookHealth.put("migrate", Status.InProgress);
    fakes.hookHealth.put("announce", Status.InProgress);
    HelmRelease release = ReleaseFakes.release();
    pipeline.reconcile(release);
    fakes.now = fakes.now.plus(Duration.ofMinutes(4));
    fakes.hookHealth.put("migrate", Status.Current);
    pipeline.reconcile(release); // announce created 4 minutes into the release

    fakes.now = fakes.now.plus(Duration.ofMinutes(2));
    Outcome sixMinutesIn = pipeline.reconcile(release);

    assertEquals(Outcome.Kind.WAITING, sixMinutesIn.kind());
    assertEquals(ReleaseStatus.PENDING_INSTALL, fakes.records.get(1).release().status());
    assertEquals("Running", phases().get("announce"));

    fakes.now = fakes.now.plus(Duration.ofMinutes(4));
    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    assertEquals("Failed", phases().get("announce"));
    assertTrue(
        fakes.records.get(1).release().info().description().contains("Job/announce"),
        fakes.records.get(1).release().info().description());
  }

  @Test
  void aFailedHookAlsoDeletesTheHooksOfItsEventThatSucceededWithHookSucceeded() {
    fakes.hooks = hooks("prepare", "check", "seed");
    fakes.hookHealth.put("check", Status.Failed);
    HelmRelease release = ReleaseFakes.release();

    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.FAILED, fakes.records.get(1).release().status());
    assertEquals(Map.of("seed", "Succeeded", "prepare", "Succeeded", "check", "Failed"), phases());
    assertEquals(
        List.of(
            "-ConfigMap/seed",
            "ConfigMap/seed",
            "Job/prepare",
            "Job/check",
            "-Job/check",
            "-Job/prepare"),
        fakes.writes,
        "seed has no hook-succeeded policy and stays; prepare has and goes after check");
  }

  @Test
  void aHookOfBothThePreAndThePostEventRunsInEachAndTheObjectsAreApplied() {
    fakes.hooks = List.of(hook("prepare", "Job", 0, "pre-install", "post-install"));
    fakes.hookHealth.put("prepare", Status.InProgress);
    HelmRelease release = ReleaseFakes.release();

    assertEquals(Outcome.Kind.WAITING, pipeline.reconcile(release).kind());
    fakes.hookHealth.put("prepare", Status.Current);
    pipeline.reconcile(release);

    assertEquals(ReleaseStatus.DEPLOYED, fakes.records.get(1).release().status());
    assertEquals(
        List.of("Job/prepare", "Deployment/podinfo", "Job/prepare"),
        fakes.writes.stream().filter(w -> !w.startsWith("-") && !w.startsWith("Service")).toList(),
        "the hook runs before and after the objects");
    assertEquals(Map.of("prepare", "Succeeded"), phases());
  }

  @Test
  void hooksThatAllSucceededAreDeletedLastFirst() {
    fakes.hooks =
        List.of(
            deletedOnSuccess(hook("b-second", "Job", 1, "pre-install")),
            deletedOnSuccess(hook("a-first", "Job", 0, "pre-install")));

    pipeline.reconcile(ReleaseFakes.release());

    assertEquals(
        List.of("Job/a-first", "Job/b-second", "-Job/b-second", "-Job/a-first"),
        fakes.writes.stream().filter(w -> w.contains("-first") || w.contains("-second")).toList());
  }

  private static ChartRender.Hook deletedOnSuccess(ChartRender.Hook h) {
    return new ChartRender.Hook(
        h.path(),
        h.kind(),
        h.name(),
        h.events(),
        h.weight(),
        List.of("hook-succeeded"),
        List.of(),
        h.manifest());
  }

  @Test
  void aHookIsRecordedRunningOnlyOnceItWasCreatedSoAResumedRunNeverWaitsOnAMissingOne() {
    fakes.hooks = hooks("migrate");
    fakes.hookHealth.put("migrate", Status.InProgress);

    pipeline.reconcile(ReleaseFakes.release());

    int created = fakes.steps.indexOf("apply Job/migrate");
    assertTrue(created >= 0, fakes.steps.toString());
    assertEquals(
        created + 1, fakes.steps.indexOf("migrate=Running"), "Running right after the create");
  }

  private Map<String, String> phases() {
    return phases(1);
  }

  private Map<String, String> phases(int version) {
    return fakes.records.get(version).release().hooks().stream()
        .collect(
            Collectors.toMap(
                ReleaseHook::name, h -> h.lastRun() == null ? "" : h.lastRun().phase()));
  }

  private ReleaseHook hook(String name) {
    return fakes.records.get(1).release().hooks().stream()
        .filter(h -> h.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static Condition condition(HelmRelease release, String type) {
    return HelmReleaseStatuses.condition(release.getStatus(), type).orElseThrow();
  }

  private static ChartRender.Hook hook(String name, String kind, int weight, String... events) {
    return new ChartRender.Hook(
        "hooks/templates/" + name + ".yaml",
        kind,
        name,
        List.of(events),
        weight,
        List.of(),
        List.of(),
        "apiVersion: v1\nkind: " + kind + "\nmetadata: {name: " + name + "}\n");
  }

  /** The hooks of hooks.yaml named, as the chart worker gives them (in the file's order). */
  static List<ChartRender.Hook> hooks(String... names) {
    Set<String> wanted = Set.of(names);
    String text = text("/helmrelease/hooks/hooks.yaml");
    return Arrays.stream(text.split("(?m)^---\\s*$"))
        .map(String::strip)
        .filter(doc -> !doc.isEmpty())
        .map(ReleaseHooksTest::asHook)
        .filter(h -> wanted.contains(h.name()))
        .toList();
  }

  private static ChartRender.Hook asHook(String document) {
    GenericKubernetesResource object =
        ManifestObjects.parse(document, "hooks.yaml").stream().findFirst().orElseThrow();
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return new ChartRender.Hook(
        "hooks/templates/" + object.getMetadata().getName() + ".yaml",
        object.getKind(),
        object.getMetadata().getName(),
        List.of(annotations.get("helm.sh/hook").split(",")),
        Integer.parseInt(annotations.getOrDefault("helm.sh/hook-weight", "0")),
        annotations.containsKey("helm.sh/hook-delete-policy")
            ? List.of(annotations.get("helm.sh/hook-delete-policy").split(","))
            : List.of(),
        List.of(),
        document);
  }

  private static String text(String resource) {
    try (InputStream in = ReleaseHooksTest.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
