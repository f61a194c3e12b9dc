package dev.capstan.ui;

import java.util.Optional;
import java.util.function.Function;

/**
 * The page's drift: asked for with a button or when a Kustomization's page opens, then read until
 * it is done; never computed on a refresh.
 */
final class DriftView {
  private final DriftTargets targets;
  private final DriftCheck check;

  DriftView(DriftTargets targets, DriftCheck check) {
    this.targets = targets;
    this.check = check;
  }

  /** Starts a comparison unless one of this revision is kept ({@code again}: even then). */
  Optional<Drift> request(String namespace, String name, boolean again) {
    return unblocked(namespace, name, t -> check.request(key(t), again, running(t)));
  }

  /** What is known without starting anything. */
  Optional<Drift> current(String namespace, String name) {
    return unblocked(
        namespace,
        name,
        t ->
            check
                .current(key(t), running(t))
                .orElse(
                    Drift.of(
                        Drift.State.NOT_ASKED,
                        t.revision(),
                        t.revisionFrom(),
                        null,
                        "not compared yet",
                        "")));
  }

  /** {@code answer} for the target, or why it is not compared when something blocks it. */
  private Optional<Drift> unblocked(
      String namespace, String name, Function<DriftTargets.Target, Drift> answer) {
    return targets
        .target(namespace, name)
        .map(t -> t.obstacle().isPresent() ? blocked(t) : answer.apply(t));
  }

  private static DriftCheck.Key key(DriftTargets.Target t) {
    Long generation = t.kustomization().getMetadata().getGeneration();
    return new DriftCheck.Key(
        t.kustomization().getMetadata().getNamespace(),
        t.kustomization().getMetadata().getName(),
        t.revision(),
        generation == null ? 0 : generation);
  }

  private static Drift running(DriftTargets.Target t) {
    return Drift.of(
        Drift.State.RUNNING,
        t.revision(),
        t.revisionFrom(),
        null,
        "fetching, building and comparing the revision with the cluster…",
        "");
  }

  private static Drift blocked(DriftTargets.Target t) {
    DriftTargets.Obstacle obstacle = t.obstacle().orElseThrow();
    return Drift.of(obstacle.state(), t.revision(), t.revisionFrom(), null, obstacle.message(), "");
  }
}
