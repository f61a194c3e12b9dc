package dev.capstan.engine.ops.events;

import dev.capstan.api.kustomize.InventoryEntry;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.Bucket;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartSourceReference;
import dev.capstan.api.source.HelmChartStatus;
import dev.capstan.api.source.HelmRepository;
import dev.capstan.api.source.OCIRepository;
import dev.capstan.api.source.SourceStatus;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.source.core.Redaction;
import dev.capstan.source.oci.OciSource;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What is worth an Event in the change from one status to the next: a new revision applied or
 * fetched, a failure (Ready turning False, or failing for a new reason), recovery, and the objects
 * a reconcile pruned. Pure: two versions of an object in, notices out.
 */
final class StatusTransitions {
  static final int MAX_LISTED = 10;

  /** One event to record. */
  record Notice(EventType type, EventReason reason, String message) {}

  private StatusTransitions() {}

  static List<Notice> kustomization(Kustomization older, Kustomization newer) {
    KustomizationStatus before = older.getStatus();
    KustomizationStatus after = newer.getStatus();
    if (after == null) {
      return List.of();
    }
    List<Notice> notices = new ArrayList<>();
    Optional<Condition> wasReady = ready(before == null ? null : before.conditions());
    Optional<Condition> isReady = ready(after.conditions());
    String applied = after.lastAppliedRevision();
    boolean newRevision =
        applied != null && !applied.equals(before == null ? null : before.lastAppliedRevision());
    if (newRevision) {
      notices.add(
          new Notice(EventType.NORMAL, EventReason.APPLIED, "Applied revision: " + applied));
    } else if (isTrue(isReady)
        && wasReady.isPresent()
        && "False".equals(wasReady.get().getStatus())) {
      notices.add(
          new Notice(EventType.NORMAL, EventReason.APPLIED, message(isReady.get(), "Ready again")));
    }
    failure(wasReady, isReady, StatusTransitions::ofCondition).ifPresent(notices::add);
    if (newer.getSpec() != null && newer.getSpec().pruneEnabled()) {
      pruned(before, after).ifPresent(notices::add);
    }
    drift(before == null ? null : before.conditions(), after.conditions()).ifPresent(notices::add);
    return notices;
  }

  /**
   * Drift reported (Drifted turning True, or naming other objects or fields), or gone (Drifted
   * turning False after True).
   */
  private static Optional<Notice> drift(List<Condition> before, List<Condition> after) {
    Optional<Condition> was = condition(before, "Drifted");
    Optional<Condition> is = condition(after, "Drifted");
    if (isTrue(is)
        && !(isTrue(was) && Objects.equals(was.get().getMessage(), is.get().getMessage()))) {
      return Optional.of(
          new Notice(
              EventType.WARNING, EventReason.DRIFT_DETECTED, message(is.get(), "Drift detected")));
    }
    if (isTrue(was) && is.isPresent() && "False".equals(is.get().getStatus())) {
      return Optional.of(
          new Notice(
              EventType.NORMAL,
              EventReason.NO_DRIFT_DETECTED,
              message(is.get(), "No drift detected")));
    }
    return Optional.empty();
  }

  static List<Notice> gitRepository(GitRepository older, GitRepository newer) {
    return source(
        older.getStatus(),
        newer.getStatus(),
        artifact -> "Stored artifact for revision: " + artifact.revision());
  }

  /**
   * An OCIRepository's new artifact, in Flux's words: the revision, the URL, and the origin the
   * artifact's annotations name (org.opencontainers.image.source and .revision), as Flux carries it
   * on; and a failed pull.
   */
  static List<Notice> ociRepository(OCIRepository older, OCIRepository newer) {
    String url = newer.getSpec() == null ? "" : newer.getSpec().url();
    return source(older.getStatus(), newer.getStatus(), artifact -> stored(artifact, url));
  }

  /** A HelmRepository's new index, in Flux's words, and a failed download. */
  static List<Notice> helmRepository(HelmRepository older, HelmRepository newer) {
    String url = newer.getSpec() == null ? "" : Redaction.scrubUrl(newer.getSpec().url());
    return source(
        older.getStatus(),
        newer.getStatus(),
        artifact ->
            "stored fetched index with revision '" + artifact.revision() + "' from '" + url + "'");
  }

  /** A Bucket's new artifact, in Flux's words (the bucket it came from), and a failed fetch. */
  static List<Notice> bucket(Bucket older, Bucket newer) {
    String name = newer.getSpec() == null ? "" : newer.getSpec().bucketName();
    return source(
        older.getStatus(),
        newer.getStatus(),
        artifact ->
            "stored artifact with revision '"
                + artifact.revision()
                + "' from '"
                + name
                + "' bucket");
  }

  /**
   * A HelmChart's new chart, in Flux's words (pulled from a repository, packaged from a source's
   * tree), and a failed build.
   */
  static List<Notice> helmChart(HelmChart older, HelmChart newer) {
    HelmChartStatus status = newer.getStatus();
    String name =
        status == null || status.observedChartName() == null ? "" : status.observedChartName();
    boolean pulled =
        newer.getSpec() != null
            && newer.getSpec().sourceRef() != null
            && newer.getSpec().sourceRef().kind() == HelmChartSourceReference.Kind.HelmRepository;
    return source(
        older.getStatus(),
        status,
        artifact ->
            (pulled ? "pulled '" : "packaged '")
                + name
                + "' chart with version '"
                + artifact.revision()
                + "'");
  }

  /**
   * A source's notices: its new artifact (told by {@code stored}) and a failed fetch, as every
   * source kind has them.
   */
  private static List<Notice> source(
      SourceStatus before, SourceStatus after, Function<Artifact, String> stored) {
    if (after == null) {
      return List.of();
    }
    List<Notice> notices = new ArrayList<>();
    Artifact artifact = after.artifact();
    String previous = SourceStatus.revisionOf(before);
    if (artifact != null && artifact.revision() != null && !artifact.revision().equals(previous)) {
      notices.add(new Notice(EventType.NORMAL, EventReason.NEW_ARTIFACT, stored.apply(artifact)));
    }
    failure(
            ready(before == null ? null : before.conditions()),
            ready(after.conditions()),
            written -> EventReason.FETCH_FAILED)
        .ifPresent(notices::add);
    return notices;
  }

  /** An OCI artifact stored from {@code url}, with the origin its annotations name. */
  private static String stored(Artifact artifact, String url) {
    StringBuilder message =
        new StringBuilder("stored artifact with revision '")
            .append(artifact.revision())
            .append("' from '")
            .append(url)
            .append("'");
    Map<String, String> metadata = artifact.metadata() == null ? Map.of() : artifact.metadata();
    String source = metadata.get(OciSource.SOURCE_ANNOTATION);
    String revision = metadata.get(OciSource.REVISION_ANNOTATION);
    if (source != null && revision != null) {
      message
          .append(", origin source '")
          .append(shortened(source))
          .append("', origin revision '")
          .append(shortened(revision))
          .append("'");
    }
    return message.toString();
  }

  /** The registry's annotations are its own to write: at most 200 characters of each. */
  private static String shortened(String value) {
    return value.length() <= 200 ? value : value.substring(0, 200) + "…";
  }

  /** Ready is False now, and was not False for the same reason and message before. */
  private static Optional<Notice> failure(
      Optional<Condition> was, Optional<Condition> is, Function<String, EventReason> reasonOf) {
    if (is.isEmpty() || !"False".equals(is.get().getStatus())) {
      return Optional.empty();
    }
    Condition now = is.get();
    if (was.isPresent()
        && "False".equals(was.get().getStatus())
        && Objects.equals(was.get().getReason(), now.getReason())
        && Objects.equals(was.get().getMessage(), now.getMessage())) {
      return Optional.empty();
    }
    EventReason reason = reasonOf.apply(now.getReason());
    return Optional.of(new Notice(reason.defaultType(), reason, message(now, "Ready is False")));
  }

  /** The event of a Kustomization's condition, from the reason written on it. */
  private static EventReason ofCondition(String written) {
    return Reason.ofText(written).map(EventReason::of).orElse(EventReason.RECONCILIATION_FAILED);
  }

  private static Optional<Notice> pruned(KustomizationStatus before, KustomizationStatus after) {
    if (before == null
        || before.inventory() == null
        || before.inventory().entries() == null
        || after.inventory() == null) {
      return Optional.empty();
    }
    Set<String> gone = new LinkedHashSet<>(ids(before.inventory().entries()));
    gone.removeAll(ids(after.inventory().entries()));
    if (gone.isEmpty()) {
      return Optional.empty();
    }
    List<String> sorted = gone.stream().sorted().toList();
    String listed = String.join(", ", sorted.subList(0, Math.min(MAX_LISTED, sorted.size())));
    String more =
        sorted.size() > MAX_LISTED ? " and " + (sorted.size() - MAX_LISTED) + " more" : "";
    return Optional.of(
        new Notice(
            EventType.NORMAL,
            EventReason.PRUNED,
            "Pruned "
                + sorted.size()
                + (sorted.size() == 1 ? " object: " : " objects: ")
                + listed
                + more));
  }

  private static List<String> ids(List<InventoryEntry> entries) {
    return entries == null ? List.of() : entries.stream().map(InventoryEntry::id).toList();
  }

  private static Optional<Condition> ready(List<Condition> conditions) {
    return condition(conditions, "Ready");
  }

  private static Optional<Condition> condition(List<Condition> conditions, String type) {
    return conditions == null
        ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  private static boolean isTrue(Optional<Condition> condition) {
    return condition.isPresent() && "True".equals(condition.get().getStatus());
  }

  private static String message(Condition condition, String otherwise) {
    return condition.getMessage() == null || condition.getMessage().isBlank()
        ? otherwise
        : condition.getMessage();
  }
}
