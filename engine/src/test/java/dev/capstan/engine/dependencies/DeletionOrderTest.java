package dev.capstan.engine.dependencies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.engine.core.NamespacedName;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reverse dependency order of deletion, over the Kustomizations of {@code deletion.yaml}. */
class DeletionOrderTest {
  private static final Duration SETTLE = Duration.ofSeconds(5);
  private static final Duration BOUND = Duration.ofMinutes(1);
  private static final NamespacedName INFRA = new NamespacedName("team", "infra");
  private static final NamespacedName APPS = new NamespacedName("team", "apps");
  private static final NamespacedName WEB = new NamespacedName("team", "web");
  private static final NamespacedName DB = new NamespacedName("data", "db");

  @Test
  void aChainDeletedTogetherGoesFromTheLastDependentToTheFirstDependency() {
    List<Kustomization> all = deleting("team/infra", "team/apps", "team/web", "data/db");

    DeletionOrder infra = order(INFRA, all);
    assertEquals(Set.of(APPS, DB), infra.waitedFor());
    DeletionOrder.Verdict waiting = infra.verdict(Duration.ZERO, SETTLE, BOUND);
    assertTrue(waiting.waits());
    assertEquals(
        "waiting for the Kustomizations that depend on it to be deleted first: data/db, team/apps",
        waiting.message());
    assertFalse(waiting.warning());

    assertEquals(Set.of(WEB), order(APPS, all).waitedFor());
    DeletionOrder.Verdict web = order(WEB, all).verdict(Duration.ZERO, SETTLE, BOUND);
    assertEquals(new DeletionOrder.Verdict(DeletionOrder.Kind.PROCEED, "", false), web);
  }

  @Test
  void aDependentBeingDeletedIsWaitedForUntilTheBoundHasPassed() {
    List<Kustomization> all = deleting("team/apps", "team/web");
    DeletionOrder apps = order(APPS, all);
    assertTrue(apps.verdict(Duration.ofSeconds(59), SETTLE, BOUND).waits());
    DeletionOrder.Verdict gaveUp = apps.verdict(Duration.ofMinutes(1), SETTLE, BOUND);
    assertFalse(gaveUp.waits());
    assertTrue(gaveUp.warning());
    assertEquals(
        "deleting its objects although team/web, which depends on it, is still being deleted"
            + " after its timeout of 60s",
        gaveUp.message());
  }

  @Test
  void aDependsOnTheCallerLeavesOutHoldsNothing() {
    List<Kustomization> all = deleting("team/infra", "data/db");
    DeletionOrder.Verdict verdict =
        DeletionOrder.of(
                INFRA,
                all,
                ks ->
                    ks.getMetadata().getNamespace().equals("data")
                        ? List.of()
                        : DependencyReferences.kustomizations(ks))
            .verdict(Duration.ZERO, SETTLE, BOUND);
    assertTrue(verdict.waits(), "apps, in team, still counts: " + verdict);
    assertEquals(
        "waiting 5s to see whether the Kustomizations that depend on it are deleted too:"
            + " team/apps",
        verdict.message());
  }

  @Test
  void aMessageNamesTenDependentsAndCountsTheOthers() {
    List<Kustomization> all = new ArrayList<>(deleting("team/infra"));
    StringBuilder named = new StringBuilder("data/db, team/apps");
    for (int i = 0; i < 25; i++) {
      Kustomization dependent = deleting().get(1);
      dependent.getMetadata().setName(String.format("apps-%02d", i));
      all.add(dependent);
      if (i < 8) {
        named.append(", team/").append(dependent.getMetadata().getName());
      }
    }
    assertEquals(
        "deleting its objects although "
            + named
            + " and 17 more, which depend on it, are not being deleted",
        order(INFRA, all).verdict(Duration.ofSeconds(5), SETTLE, BOUND).message());
  }

  @Test
  void aDependentThatStaysIsGivenTheSettleTimeThenNotWaitedFor() {
    List<Kustomization> all = deleting("team/infra");
    DeletionOrder infra = order(INFRA, all);
    assertEquals(Set.of(), infra.waitedFor());
    DeletionOrder.Verdict early = infra.verdict(Duration.ofSeconds(4), SETTLE, BOUND);
    assertTrue(early.waits());
    assertEquals(
        "waiting 5s to see whether the Kustomizations that depend on it are deleted too:"
            + " data/db, team/apps",
        early.message());
    DeletionOrder.Verdict later = infra.verdict(Duration.ofSeconds(5), SETTLE, BOUND);
    assertFalse(later.waits());
    assertTrue(later.warning());
    assertEquals(
        "deleting its objects although data/db, team/apps, which depend on it, are not being"
            + " deleted",
        later.message());
  }

  @Test
  void aCycleBeingDeletedDoesNotWaitForItselfButForItsOtherDependents() {
    List<Kustomization> all = deleting("loop/a", "loop/b", "loop/c");
    DeletionOrder a = order(new NamespacedName("loop", "a"), all);
    assertEquals(Set.of(new NamespacedName("loop", "c")), a.waitedFor());
    DeletionOrder b = order(new NamespacedName("loop", "b"), all);
    DeletionOrder.Verdict verdict = b.verdict(Duration.ZERO, SETTLE, BOUND);
    assertFalse(verdict.waits(), "never a deadlock");
    assertTrue(verdict.warning());
    assertEquals(
        "dependency cycle among Kustomizations being deleted: loop/a -> loop/b -> loop/a;"
            + " deleting its objects without waiting for the others in it",
        verdict.message());
  }

  @Test
  void aKustomizationNothingDependsOnProceedsAtOnceWithNothingToSay() {
    DeletionOrder.Verdict verdict =
        order(DB, deleting("data/db")).verdict(Duration.ZERO, SETTLE, BOUND);
    assertEquals(new DeletionOrder.Verdict(DeletionOrder.Kind.PROCEED, "", false), verdict);
  }

  /** The order of {@code self}, each Kustomization's dependsOn read as written. */
  private static DeletionOrder order(NamespacedName self, List<Kustomization> all) {
    return DeletionOrder.of(self, all, DependencyReferences::kustomizations);
  }

  /** The fixture's Kustomizations, those named ({@code namespace/name}) being deleted. */
  private static List<Kustomization> deleting(String... keys) {
    List<String> marked = Arrays.asList(keys);
    KubernetesSerialization serialization = new KubernetesSerialization();
    return Arrays.stream(read().split("(?m)^---$"))
        .map(doc -> serialization.unmarshal(doc, Kustomization.class))
        .peek(
            ks -> {
              if (marked.contains(NamespacedName.of(ks).toString())) {
                ks.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
              }
            })
        .toList();
  }

  private static String read() {
    try (InputStream in =
        DeletionOrderTest.class.getResourceAsStream("/dependencies/deletion.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
