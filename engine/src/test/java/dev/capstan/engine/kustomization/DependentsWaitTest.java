package dev.capstan.engine.kustomization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.engine.core.NamespacedName;
import dev.capstan.engine.dependencies.DeletionOrder;
import dev.capstan.engine.pipeline.ClusterView;
import dev.capstan.testing.MutableClock;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A victim's Kustomization being deleted and a dependent another tenant made to hold it: a
 * dependsOn the reference rules refuse holds nothing, and no dependent holds it longer than its own
 * timeout, however long the dependent's timeout and whatever else goes away meanwhile.
 */
class DependentsWaitTest {
  private static final NamespacedName VICTIM = new NamespacedName("victim", "app");
  private static final Duration TEN_YEARS = Duration.ofDays(3650);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T08:00:00Z"));
  private final View view = new View();

  @Test
  void underTheLockdownADependentInAnotherNamespaceHoldsNothing() {
    Kustomization victim = deleting(kustomization(VICTIM, "30s"));
    view.put(victim);
    view.put(deleting(dependent(new NamespacedName("hostile", "holder"), VICTIM)));

    DeletionOrder.Verdict locked = wait(true).look(victim);
    assertEquals(new DeletionOrder.Verdict(DeletionOrder.Kind.PROCEED, "", false), locked);

    DeletionOrder.Verdict open = wait(false).look(victim);
    assertTrue(open.waits(), "without the lockdown the dependsOn is honoured: " + open);
  }

  @Test
  void underTheLockdownADependencyInAnotherNamespaceIsNotWaitedForEither() {
    Kustomization victim = deleting(kustomization(VICTIM, "30s"));
    view.put(victim);
    Kustomization holder = deleting(dependent(new NamespacedName("hostile", "holder"), VICTIM));

    assertFalse(wait(true).dependencyBeingDeleted(holder));
    assertTrue(wait(false).dependencyBeingDeleted(holder));
  }

  @Test
  void aDependentThatNeverGoesHoldsOnlyForTheDeletingKustomizationsOwnTimeout() {
    Kustomization victim = deleting(kustomization(VICTIM, "30s"));
    view.put(victim);
    view.put(deleting(dependent(new NamespacedName("hostile", "holder"), VICTIM)));
    DependentsWait wait = wait(false);

    assertTrue(wait.look(victim).waits());
    clock.advance(Duration.ofSeconds(29));
    DeletionOrder.Verdict before = wait.look(victim);
    assertTrue(before.waits());
    assertEquals(
        "waiting for the Kustomizations that depend on it to be deleted first: hostile/holder",
        before.message());

    clock.advance(Duration.ofSeconds(1));
    DeletionOrder.Verdict after = wait.look(victim);
    assertFalse(after.waits(), "the dependent's ten-year timeout is not the victim's");
    assertTrue(after.warning());
    assertEquals(
        "deleting its objects although hostile/holder, which depends on it, is still being"
            + " deleted after its timeout of 30s",
        after.message());
  }

  @Test
  void dependentsGoingAwayOneByOneDoNotMakeTheWaitLonger() {
    Kustomization victim = deleting(kustomization(VICTIM, "30s"));
    view.put(victim);
    NamespacedName first = new NamespacedName("victim", "first");
    view.put(deleting(dependent(first, VICTIM)));
    view.put(deleting(dependent(new NamespacedName("victim", "second"), VICTIM)));
    DependentsWait wait = wait(false);

    assertTrue(wait.look(victim).waits());
    clock.advance(Duration.ofSeconds(25));
    view.remove(first);
    assertTrue(wait.look(victim).waits());
    clock.advance(Duration.ofSeconds(5));
    assertFalse(wait.look(victim).waits(), "the bound counts from the first look, not progress");
  }

  @Test
  void aDeletionSeenAgainAfterItWasDoneStartsItsBoundAfresh() {
    Kustomization victim = deleting(kustomization(VICTIM, "30s"));
    view.put(victim);
    view.put(deleting(dependent(new NamespacedName("victim", "web"), VICTIM)));
    DependentsWait wait = wait(false);

    wait.look(victim);
    clock.advance(Duration.ofMinutes(5));
    wait.forget(VICTIM);
    assertTrue(wait.look(victim).waits());
  }

  private DependentsWait wait(boolean noCrossNamespaceRefs) {
    return new DependentsWait(view, new ReferenceRules(noCrossNamespaceRefs), clock);
  }

  private static Kustomization kustomization(NamespacedName key, String timeout) {
    return kustomization(key, timeout, "[]");
  }

  private static Kustomization kustomization(NamespacedName key, String timeout, String dependsOn) {
    return Serialization.unmarshal(
        """
        apiVersion: kustomize.capstan.dev/v1
        kind: Kustomization
        metadata: {name: %s, namespace: %s}
        spec:
          sourceRef: {kind: GitRepository, name: repo}
          path: ./
          interval: 10m
          timeout: %s
          prune: true
          dependsOn: %s
        """
            .formatted(key.name(), key.namespace(), timeout, dependsOn),
        Kustomization.class);
  }

  /** A Kustomization with a ten-year timeout that depends on {@code dependency}. */
  private static Kustomization dependent(NamespacedName key, NamespacedName dependency) {
    return kustomization(
        key,
        TEN_YEARS.toHours() + "h",
        "[{name: %s, namespace: %s}]".formatted(dependency.name(), dependency.namespace()));
  }

  private static Kustomization deleting(Kustomization ks) {
    ks.getMetadata().setDeletionTimestamp("2026-11-29T08:00:00Z");
    return ks;
  }

  /** The engine's cache of Kustomizations. */
  private static final class View implements ClusterView {
    private final Map<NamespacedName, Kustomization> all = new ConcurrentHashMap<>();

    void put(Kustomization ks) {
      all.put(NamespacedName.of(ks), ks);
    }

    void remove(NamespacedName key) {
      all.remove(key);
    }

    @Override
    public Optional<GitRepository> gitRepository(NamespacedName key) {
      return Optional.empty();
    }

    @Override
    public Optional<Kustomization> kustomization(NamespacedName key) {
      return Optional.ofNullable(all.get(key));
    }

    @Override
    public Collection<Kustomization> kustomizations() {
      return List.copyOf(all.values());
    }
  }
}
