package dev.capstan.ui;

import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.applier.ResourceManager;
import dev.capstan.applier.common.Owner;
import dev.capstan.applier.diff.DiffReport;
import dev.capstan.applier.diff.ObjectDiff;
import dev.capstan.engine.kustomization.RevisionBuild;
import dev.capstan.kube.ApiErrors;
import dev.capstan.source.git.CommitSummary;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One drift comparison with the user's client: the revision fetched and built as the engine does it
 * ({@link RevisionBuild}), then compared object by object as {@code capstan diff} does it
 * (server-side dry-run against live state, Secret values masked, {@link ResourceManager#diff}).
 */
final class DriftComputation implements DriftCheck.Computation {
  /** Objects listed; a revision may hold thousands, the rest is counted only. */
  static final int MAX_LISTED = 200;

  /** Characters of one object's diff; Git decides how large an object is. */
  static final int MAX_TEXT = 20_000;

  /** Characters of all diffs of one answer; answers are kept, one per Kustomization. */
  static final int MAX_TOTAL_TEXT = 500_000;

  private static final Duration FETCH_GRACE = Duration.ofSeconds(2);

  private final DriftTargets targets;
  private final KubernetesClient client;
  private final RevisionBuild builds;
  private final ResourceManager manager;
  private final Clock clock;

  /**
   * @param manager acts with {@code client}: the comparisons are the user's
   */
  DriftComputation(
      DriftTargets targets,
      KubernetesClient client,
      RevisionBuild builds,
      ResourceManager manager,
      Clock clock) {
    this.targets = targets;
    this.client = client;
    this.builds = builds;
    this.manager = manager;
    this.clock = clock;
  }

  @Override
  public Drift compute(DriftCheck.Key key, Instant deadline) {
    Optional<DriftTargets.Target> found = targets.target(key.namespace(), key.name());
    if (found.isPresent() && found.get().obstacle().isPresent()) {
      // Changed since the comparison was asked for (a spec edited meanwhile, say): never fetch
      // what the engine would now refuse.
      DriftTargets.Obstacle obstacle = found.get().obstacle().get();
      return Drift.of(obstacle.state(), key.revision(), "", null, obstacle.message(), now());
    }
    if (found.isEmpty() || found.get().repository().isEmpty()) {
      return Drift.of(
          Drift.State.FAILED,
          key.revision(),
          "",
          null,
          "the Kustomization or its GitRepository is no longer in your view",
          now());
    }
    DriftTargets.Target target = found.get();
    // The deadline's timer answers "timed out" and interrupts this work; the fetch's own bound,
    // a little later, only ends a network read that an interrupt does not reach.
    Duration left = Duration.between(clock.instant(), deadline).plus(FETCH_GRACE);
    RevisionBuild.Result result =
        builds.build(
            client, target.kustomization(), target.repository().get(), key.revision(), left);
    Drift.Commit commit = result.commit().map(DriftComputation::commit).orElse(null);
    if (result instanceof RevisionBuild.Failed failed) {
      String what =
          failed.stage() == RevisionBuild.Stage.SOURCE
              ? "cannot fetch the source: "
              : "cannot build the revision: ";
      return Drift.of(
          Drift.State.FAILED,
          key.revision(),
          target.revisionFrom(),
          commit,
          what + failed.message(),
          now());
    }
    // The built objects hold room of the builder's heap for results until the comparison is done.
    try (RevisionBuild.Built built = (RevisionBuild.Built) result) {
      return compared(key, target, commit, built);
    }
  }

  /** The built revision compared with the cluster. */
  private Drift compared(
      DriftCheck.Key key,
      DriftTargets.Target target,
      Drift.Commit commit,
      RevisionBuild.Built built) {
    Kustomization ks = target.kustomization();
    String namespace = ks.getMetadata().getNamespace();
    String targetNamespace =
        ks.getSpec().targetNamespace() == null || ks.getSpec().targetNamespace().isEmpty()
            ? namespace
            : ks.getSpec().targetNamespace();
    DiffReport report;
    try {
      report =
          manager.diff(
              built.objects(), new Owner(ks.getMetadata().getName(), namespace), targetNamespace);
    } catch (KubernetesClientException e) {
      return Drift.of(
          Drift.State.FAILED,
          key.revision(),
          target.revisionFrom(),
          commit,
          "cannot compare with the cluster: " + ApiErrors.refusal(e),
          now());
    }
    SecretValues secrets = SecretValues.of(built.objects());
    UnaryOperator<String> redaction = text -> secrets.redact(built.redaction().apply(text));
    return answer(key.revision(), target.revisionFrom(), commit, report, redaction, now());
  }

  /** The page's answer for a report: what differs, each text redacted and bounded. */
  static Drift answer(
      String revision,
      String revisionFrom,
      Drift.Commit commit,
      DiffReport report,
      UnaryOperator<String> redaction,
      String computedAt) {
    List<Drift.ObjectLine> lines = new ArrayList<>();
    int differing = 0;
    int failed = 0;
    int budget = MAX_TOTAL_TEXT;
    for (ObjectDiff diff : report.objects()) {
      if (diff.change() == ObjectDiff.Change.UNCHANGED) {
        continue;
      }
      if (diff.changes()) {
        differing++;
      } else {
        failed++;
      }
      if (lines.size() < MAX_LISTED) {
        String text =
            budget > 0
                ? bounded(redaction.apply(diff.text()), Math.min(MAX_TEXT, budget))
                : "(not shown: the diffs above fill this answer)";
        budget -= text.length();
        lines.add(new Drift.ObjectLine(diff.ref().toString(), diff.change().name(), text));
      }
    }
    int total = report.objects().size();
    String message =
        differing == 0 && failed == 0
            ? "no drift: the cluster matches the revision"
            : differing
                + " of "
                + total
                + " objects differ from the revision"
                + (failed > 0 ? "; " + failed + " could not be compared" : "")
                + (differing + failed > lines.size()
                    ? " (the first " + lines.size() + " are listed)"
                    : "");
    return new Drift(
        Drift.State.DONE,
        revision,
        revisionFrom,
        commit,
        message,
        lines,
        total,
        differing,
        computedAt);
  }

  private static String bounded(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + "\n… (cut: the diff is longer)\n";
  }

  static Drift.Commit commit(CommitSummary c) {
    String author = c.email().isEmpty() ? c.author() : c.author() + " <" + c.email() + ">";
    return new Drift.Commit(
        c.commitId(), author, c.time() == null ? "" : c.time().toString(), c.subject());
  }

  private String now() {
    return clock.instant().toString();
  }
}
