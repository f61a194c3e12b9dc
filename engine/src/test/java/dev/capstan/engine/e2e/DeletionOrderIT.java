package dev.capstan.engine.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.source.GitRepository;
import dev.capstan.applier.common.Owner;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Kustomizations of an infra → apps → web chain deleted together delete their objects in reverse
 * dependency order, as the API server sees it: no object of a dependency is asked to go while an
 * object of a Kustomization that depends on it still exists. web's object carries a finalizer the
 * test releases after a while, so that the order is tested against a slow deletion. A dependent
 * that never goes away holds a deletion no longer than the deleting Kustomization's own timeout.
 */
class DeletionOrderIT extends EngineTestBase {
  private static final String HOLD = "capstan.dev/test-hold";
  private static final List<String> CHAIN = List.of("web", "apps", "infra");

  @Test
  void deletingTheNamespaceOfTheChainDeletesItsObjectsFromTheLastDependentToTheFirst() {
    String env = ns() + "-env";
    chainIn(env);
    orderOfDeletion(
        env,
        namespace -> engine.client.namespaces().withName(namespace).delete(),
        () -> engine.client.namespaces().withName(env).get() == null);
  }

  @Test
  void deletingTheChainInOneCallDeletesItsObjectsFromTheLastDependentToTheFirst() {
    String env = ns() + "-call";
    chainIn(env);
    try {
      orderOfDeletion(
          env,
          namespace -> engine.client.resources(Kustomization.class).inNamespace(namespace).delete(),
          () ->
              engine
                  .client
                  .resources(Kustomization.class)
                  .inNamespace(env)
                  .list()
                  .getItems()
                  .isEmpty());
    } finally {
      engine.client.namespaces().withName(env).delete();
    }
  }

  /**
   * Another namespace's Kustomization that depends on the victim, with a timeout of ten years and a
   * finalizer that keeps it being deleted, holds the victim's deletion only for the victim's own
   * timeout; then the victim says DependentsNotDeleted, naming it, and its objects go.
   */
  @Test
  void aDependentThatNeverGoesHoldsTheDeletionOnlyForTheDeletingKustomizationsTimeout() {
    String tenant = ns() + "-holder";
    engine
        .client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(tenant).endMetadata().build())
        .create();
    git.commit(
        Map.of(
            "victim/cm.yaml", configMap("victim-own", false),
            "holder/cm.yaml", configMap("holder-own", false)));
    if (engine.gitRepository("repo") == null) {
      engine.gitRepository("repo", git.url());
    } else {
      engine.requestReconcile(GitRepository.class, "repo");
    }
    engine.kustomization("victim", "repo", "./victim", "  timeout: 15s\n");
    HoldingDependent holder =
        HoldingDependent.create(engine, tenant, "holder", ns(), "victim", "repo", "./holder");
    List<String> reasons = new CopyOnWriteArrayList<>();
    try {
      EngineFixture.eventually(Duration.ofSeconds(90)).until(() -> ready(ns(), "victim"));
      EngineFixture.eventually(Duration.ofSeconds(90)).until(() -> ready(tenant, "holder"));
      holder.deleteAndHold();
      try (Watch watch =
          engine
              .client
              .resources(Kustomization.class)
              .inNamespace(ns())
              .withName("victim")
              .watch(readyReasons(reasons))) {
        long start = System.nanoTime();
        engine.client.resources(Kustomization.class).inNamespace(ns()).withName("victim").delete();
        EngineFixture.eventually(Duration.ofSeconds(60))
            .until(() -> kustomization(ns(), "victim") == null);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(
            took.compareTo(Duration.ofSeconds(15)) >= 0
                && took.compareTo(Duration.ofSeconds(45)) < 0,
            "held " + took + ", not the victim's 15s timeout");
      }
      assertEquals(null, engine.client.configMaps().inNamespace(ns()).withName("victim-own").get());
      assertTrue(
          reasons.contains(
              "WaitingForDependents: waiting for the Kustomizations that depend on it to be"
                  + " deleted first: "
                  + tenant
                  + "/holder"),
          reasons.toString());
      assertTrue(
          reasons.contains(
              "DependentsNotDeleted: deleting its objects although "
                  + tenant
                  + "/holder, which depends on it, is still being deleted after its timeout of"
                  + " 15s"),
          reasons.toString());
    } finally {
      holder.release();
      engine.client.namespaces().withName(tenant).delete();
    }
  }

  /** Records each Ready reason and message a watch of a Kustomization sees, once each. */
  private static Watcher<Kustomization> readyReasons(List<String> reasons) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, Kustomization ks) {
        if (ks.getStatus() == null || ks.getStatus().conditions() == null) {
          return;
        }
        ks.getStatus().conditions().stream()
            .filter(c -> "Ready".equals(c.getType()))
            .map(c -> c.getReason() + ": " + c.getMessage())
            .filter(r -> !reasons.contains(r))
            .forEach(reasons::add);
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  /** The chain's Kustomizations in {@code env}, their objects in the test's namespace. */
  private static void chainIn(String env) {
    engine
        .client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(env).endMetadata().build())
        .create();
    git.commit(
        Map.of(
            env + "/infra/one.yaml", configMap(env + "-infra-1", false),
            env + "/infra/two.yaml", configMap(env + "-infra-2", false),
            env + "/apps/one.yaml", configMap(env + "-apps-1", false),
            env + "/apps/two.yaml", configMap(env + "-apps-2", false),
            env + "/web/one.yaml", configMap(env + "-web-1", true)));
    if (engine.gitRepository("repo") == null) {
      engine.gitRepository("repo", git.url());
    } else {
      // The second chain's paths are in the new commit: fetched now, not at the next interval.
      engine.requestReconcile(GitRepository.class, "repo");
    }
    String target = "  targetNamespace: " + ns() + "\n";
    engine.kustomization("infra", env, ns(), "repo", "./" + env + "/infra", target);
    engine.kustomization(
        "apps", env, ns(), "repo", "./" + env + "/apps", target + "  dependsOn: [{name: infra}]");
    engine.kustomization(
        "web", env, ns(), "repo", "./" + env + "/web", target + "  dependsOn: [{name: apps}]");
    for (String name : CHAIN) {
      EngineFixture.eventually(Duration.ofSeconds(90)).until(() -> ready(env, name));
    }
  }

  /**
   * Deletes the chain with {@code deletion}, records what the API server tells a watch of its
   * objects, releases web's object a few seconds after its deletion started, and checks the order.
   */
  private static void orderOfDeletion(
      String env, Consumer<String> deletion, BooleanSupplier chainGone) {
    List<Seen> seen = new CopyOnWriteArrayList<>();
    try (Watch watch =
        engine
            .client
            .configMaps()
            .inNamespace(ns())
            .withLabel(Owner.NAMESPACE_LABEL, env)
            .watch(recorder(seen))) {
      deletion.accept(env);
      String held = env + "-web-1";
      EngineFixture.eventually(Duration.ofSeconds(60))
          .until(() -> configMap(held).getMetadata().getDeletionTimestamp() != null);
      EngineFixture.eventually(Duration.ofSeconds(30))
          .until(
              () ->
                  "WaitingForDependents".equals(readyReason(env, "apps"))
                      && "WaitingForDependents".equals(readyReason(env, "infra")));
      assertTrue(
          message(env, "infra").endsWith(env + "/apps"),
          "infra names who it waits for: " + message(env, "infra"));
      sleep(Duration.ofSeconds(3));
      for (String object : List.of("-apps-1", "-apps-2", "-infra-1", "-infra-2")) {
        ConfigMap live = configMap(env + object);
        assertTrue(
            live != null && live.getMetadata().getDeletionTimestamp() == null,
            object + " untouched while web's object is held");
      }
      release(held);
      EngineFixture.eventually(Duration.ofSeconds(120)).until(chainGone::getAsBoolean);
      EngineFixture.eventually(Duration.ofSeconds(30))
          .until(() -> seen.stream().filter(s -> s.type() == Watcher.Action.DELETED).count() == 5);
    } finally {
      // a failed run must not leave the test's namespace stuck on the hold
      releaseIfPresent(env + "-web-1");
    }
    for (int i = 0; i + 1 < CHAIN.size(); i++) {
      String dependent = CHAIN.get(i);
      String dependency = CHAIN.get(i + 1);
      int lastGone = last(seen, dependent);
      int firstAsked = first(seen, dependency);
      assertTrue(
          lastGone < firstAsked,
          dependency
              + "'s objects were asked to go (event "
              + firstAsked
              + ") while "
              + dependent
              + "'s still existed (gone at event "
              + lastGone
              + "): "
              + seen);
    }
    assertEquals(5, seen.stream().filter(s -> s.type() == Watcher.Action.DELETED).count());
  }

  /** One event of the watch: its place, its type, the object's Kustomization and name. */
  private record Seen(int index, Watcher.Action type, String owner, String name, boolean asked) {}

  private static Watcher<ConfigMap> recorder(List<Seen> seen) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, ConfigMap object) {
        seen.add(
            new Seen(
                seen.size(),
                action,
                object.getMetadata().getLabels().get(Owner.NAME_LABEL),
                object.getMetadata().getName(),
                action == Action.DELETED || object.getMetadata().getDeletionTimestamp() != null));
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }

  /** The index of the last DELETED event of an object of {@code owner}. */
  private static int last(List<Seen> seen, String owner) {
    return seen.stream()
        .filter(s -> owner.equals(s.owner()) && s.type() == Watcher.Action.DELETED)
        .mapToInt(Seen::index)
        .max()
        .orElseThrow(() -> new AssertionError("no object of " + owner + " gone: " + seen));
  }

  /** The index of the first event saying an object of {@code owner} was asked to go. */
  private static int first(List<Seen> seen, String owner) {
    return seen.stream()
        .filter(s -> owner.equals(s.owner()) && s.asked())
        .mapToInt(Seen::index)
        .min()
        .orElseThrow(() -> new AssertionError("no object of " + owner + " deleted: " + seen));
  }

  private static void releaseIfPresent(String name) {
    if (configMap(name) != null) {
      release(name);
    }
  }

  private static void release(String name) {
    engine
        .client
        .configMaps()
        .inNamespace(ns())
        .withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
  }

  private static ConfigMap configMap(String name) {
    return engine.client.configMaps().inNamespace(ns()).withName(name).get();
  }

  private static boolean ready(String env, String name) {
    Kustomization ks = kustomization(env, name);
    return ks != null
        && ks.getStatus() != null
        && ks.getStatus().conditions() != null
        && ks.getStatus().conditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static String readyReason(String env, String name) {
    return condition(env, name).map(c -> c.getReason()).orElse("");
  }

  private static String message(String env, String name) {
    return condition(env, name).map(c -> c.getMessage()).orElse("");
  }

  private static Optional<Condition> condition(String env, String name) {
    Kustomization ks = kustomization(env, name);
    if (ks == null || ks.getStatus() == null || ks.getStatus().conditions() == null) {
      return Optional.empty();
    }
    return ks.getStatus().conditions().stream()
        .filter(c -> "Ready".equals(c.getType()))
        .findFirst();
  }

  private static Kustomization kustomization(String env, String name) {
    return engine.client.resources(Kustomization.class).inNamespace(env).withName(name).get();
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String configMap(String name, boolean held) {
    return """
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: %s%s}
    data: {value: "1"}
    """
        .formatted(name, held ? ", finalizers: [" + HOLD + "]" : "");
  }
}
