package dev.capstan.cli.faults;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A SIGKILL of the engine aimed at one stage of one Kustomization's reconcile, after a commit that
 * renews that Kustomization's objects (new ones added, all it had removed): at its apply (the first
 * new object seen created), at its prune (the first removed object seen deleted), or at its status
 * (its "in progress" status write seen, before the build and apply). A watch sees the moment; the
 * kill follows at once, so the stage is cut where it then is. Says how far it had got.
 */
final class AimedKill {
  /** The stage a kill is aimed at. */
  enum Stage {
    APPLY,
    PRUNE,
    STATUS
  }

  /**
   * How many objects a renewing commit adds: enough that the engine's concurrent writes of them
   * still run when the watch sees the first one done.
   */
  static final int NEW_OBJECTS = 40;

  private static final Duration SEEN_WITHIN = Duration.ofSeconds(90);
  private static final String IN_PROGRESS = "Reconciliation in progress for revision ";

  private final KubernetesClient admin;
  private final String namespace;

  AimedKill(KubernetesClient admin, String namespace) {
    this.admin = admin;
    this.namespace = namespace;
  }

  /**
   * Renews a Kustomization's objects, kills {@code cluster}'s engine at {@code stage} of its
   * reconcile and starts a new one; returns where the kill landed. A kill aimed at the prune first
   * gives that Kustomization many objects, and waits until they are applied.
   *
   * @throws IllegalStateException when the stage was not seen in time: nothing was killed
   */
  String inject(FaultCluster cluster, Stage stage) throws Exception {
    FaultWorkload workload = cluster.workload();
    Set<String> names = ConcurrentHashMap.newKeySet();
    AtomicReference<String> owner = new AtomicReference<>();
    AtomicReference<String> renewed = new AtomicReference<>();
    Consumer<FaultWorkload.Renewal> note =
        r -> {
          names.addAll(stage == Stage.APPLY ? r.added() : r.removed());
          owner.set(r.owner());
        };
    FaultWorkload.Renewal renewal = null;
    boolean killed = false;
    try {
      // The watch opens before the commit, and learns what to look for before the commit is made:
      // no event of that commit can come before either.
      try (Trigger trigger = trigger(stage, names, owner, renewed, workload)) {
        if (stage == Stage.PRUNE) {
          // many objects to prune first, applied, so that their deletions take a while
          String many = workload.commitRenewal(NEW_OBJECTS, r -> {}).owner();
          awaitApplied(cluster, many);
          renewal = workload.commitRenewal(1, many, note);
        } else {
          renewal = workload.commitRenewal(NEW_OBJECTS, note);
        }
        renewed.set(renewal.revision());
        cluster.requestFetch();
        if (!trigger.seen().await(SEEN_WITHIN.toSeconds(), TimeUnit.SECONDS)) {
          throw new IllegalStateException(
              "the "
                  + stage.name().toLowerCase()
                  + " of "
                  + renewal.owner()
                  + " not seen within "
                  + SEEN_WITHIN.toSeconds()
                  + " s");
        }
        cluster.engine().kill();
        killed = true;
      }
      return landed(stage, renewal);
    } catch (KubernetesClientException e) {
      if (!killed) {
        throw e;
      }
      return renewal.owner() + " killed; how far its stage got is not known";
    } finally {
      if (killed) {
        cluster.startEngine(); // whatever reading how far the stage got, or the watch's close, did
      }
    }
  }

  /**
   * Asks for a fetch and waits until the cluster holds exactly the objects the repository gives
   * {@code owner} (the commit stream may have changed some since).
   */
  private void awaitApplied(FaultCluster cluster, String owner) throws Exception {
    cluster.requestFetch();
    long deadline = System.nanoTime() + SEEN_WITHIN.toNanos();
    while (!appliedNames(owner).equals(cluster.workload().expected().get(owner).keySet())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            owner + "'s new objects not applied within " + SEEN_WITHIN.toSeconds() + " s");
      }
      Thread.sleep(250);
    }
  }

  private Set<String> appliedNames(String owner) {
    return admin
        .configMaps()
        .inNamespace(namespace)
        .withLabel(FaultCluster.OWNER_LABEL, owner)
        .list()
        .getItems()
        .stream()
        .map(cm -> cm.getMetadata().getName())
        .collect(Collectors.toSet());
  }

  /** A watch that counts its latch down once, at the moment aimed at. */
  private record Trigger(Watch watch, CountDownLatch seen) implements AutoCloseable {
    @Override
    public void close() {
      watch.close();
    }
  }

  /**
   * The trigger of {@code stage}: on the Kustomization {@code owner} names (once it does) saying a
   * reconcile runs of the revision {@code renewed} names or a later one; or on the first of {@code
   * names} created (apply) or deleted (prune).
   */
  private Trigger trigger(
      Stage stage,
      Set<String> names,
      AtomicReference<String> owner,
      AtomicReference<String> renewed,
      FaultWorkload workload) {
    if (stage == Stage.STATUS) {
      CountDownLatch seen = new CountDownLatch(1);
      Watch watch =
          admin
              .resources(Kustomization.class)
              .inNamespace(namespace)
              .watch(
                  on(
                      seen,
                      (action, k) ->
                          action == Watcher.Action.MODIFIED
                              && k.getMetadata().getName().equals(owner.get())
                              && inProgressOf(k.getStatus())
                                  .filter(r -> renewed.get() != null)
                                  .filter(r -> workload.isAtOrAfter(r, renewed.get()))
                                  .isPresent()));
      return new Trigger(watch, seen);
    }
    Watcher.Action wanted = stage == Stage.APPLY ? Watcher.Action.ADDED : Watcher.Action.DELETED;
    return objectWatch(wanted, names::contains);
  }

  /** A trigger on the first applied object seen so ({@code action}) whose name is wanted. */
  private Trigger objectWatch(Watcher.Action action, Predicate<String> wanted) {
    CountDownLatch seen = new CountDownLatch(1);
    Watch watch =
        admin
            .configMaps()
            .inNamespace(namespace)
            .withLabel(FaultCluster.OWNER_LABEL)
            .watch(on(seen, (a, cm) -> a == action && wanted.test(cm.getMetadata().getName())));
    return new Trigger(watch, seen);
  }

  /** The revision a Kustomization's Ready says a reconcile of runs, if it says so. */
  private static Optional<String> inProgressOf(KustomizationStatus status) {
    if (status == null || status.conditions() == null) {
      return Optional.empty();
    }
    return status.conditions().stream()
        .filter(c -> "Ready".equals(c.getType()) && c.getMessage() != null)
        .map(c -> c.getMessage())
        .filter(m -> m.startsWith(IN_PROGRESS))
        .map(m -> m.substring(IN_PROGRESS.length()))
        .findFirst();
  }

  /** How far the stage had got, read once the engine is dead. */
  private String landed(Stage stage, FaultWorkload.Renewal renewal) {
    Set<String> present = appliedNames(renewal.owner());
    long applied = renewal.added().stream().filter(present::contains).count();
    long pruned = renewal.removed().stream().filter(n -> !present.contains(n)).count();
    String objects =
        String.format(
            "%d of %d new objects applied, %d of %d removed ones pruned",
            applied, renewal.added().size(), pruned, renewal.removed().size());
    return switch (stage) {
      case APPLY -> renewal.owner() + " killed mid-apply: " + objects;
      case PRUNE -> renewal.owner() + " killed mid-prune: " + objects;
      case STATUS -> renewal.owner() + " killed after its in-progress status write: " + objects;
    };
  }

  private static <T extends HasMetadata> Watcher<T> on(
      CountDownLatch seen, BiPredicate<Watcher.Action, T> wanted) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, T resource) {
        if (wanted.test(action, resource)) {
          seen.countDown();
        }
      }

      @Override
      public void onClose(WatcherException cause) {}
    };
  }
}
