package dev.capstan.ui;

import dev.capstan.api.helm.HelmReleaseStatus;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.kustomize.SourceReference;
import dev.capstan.api.source.SourceStatus;
import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Assembles a Kustomization's or HelmRelease's page: the object and its source from the shared
 * informers, its Events and inventory objects read with the user's client when the page asks.
 */
final class DetailsReader {
  static final int MAX_EVENTS = 100;

  private final Catalog catalog;
  private final KubernetesClient client;
  private final InventoryGroups inventory;

  DetailsReader(Catalog catalog, KubernetesClient client, InventoryGroups inventory) {
    this.catalog = catalog;
    this.client = client;
    this.inventory = inventory;
  }

  Optional<Details> read(String namespace, String name) {
    return catalog.kustomization(namespace, name).map(this::details);
  }

  /** A HelmRelease's page: its status from the informer, its inventory's objects read now. */
  Optional<HelmReleaseView.Page> readHelmRelease(String namespace, String name) {
    return catalog
        .helmRelease(namespace, name)
        .map(
            hr -> {
              HelmReleaseStatus status = hr.getStatus();
              InventoryGroups.Result tree =
                  status == null
                          || status.inventory() == null
                          || status.inventory().entries() == null
                      ? new InventoryGroups.Result(
                          List.of(), "no inventory yet: nothing has been released")
                      : inventory.read(status.inventory().entries(), null);
              return HelmReleaseView.page(hr, tree);
            });
  }

  private Details details(Kustomization ks) {
    KustomizationStatus status = ks.getStatus();
    Conditions conditions = new Conditions(status == null ? null : status.conditions());
    List<Details.ConditionLine> lines = conditions.lines();
    String historyNote = "";
    List<Details.EventLine> history = List.of();
    try {
      history = events(ks);
    } catch (KubernetesClientException e) {
      historyNote = "cannot list Events: " + ApiErrors.refusal(e);
    }
    InventoryGroups.Result tree =
        status == null || status.inventory() == null || status.inventory().entries() == null
            ? new InventoryGroups.Result(List.of(), "no inventory yet: nothing has been applied")
            : inventory.read(
                status.inventory().entries(),
                ks.getSpec() == null ? null : ks.getSpec().healthCheckExprs());
    return new Details(
        Overview.row(ks),
        lines,
        history,
        historyNote,
        tree.groups(),
        tree.note(),
        source(ks),
        reconciles(status));
  }

  /** The page's "Last reconciles" table: status.history, most recent first, as it is. */
  static List<Details.ReconcileLine> reconciles(KustomizationStatus status) {
    if (status == null || status.history() == null) {
      return List.of();
    }
    return status.history().stream()
        .map(
            s -> {
              Map<String, String> metadata = s.metadata() == null ? Map.of() : s.metadata();
              return new Details.ReconcileLine(
                  Objects.toString(s.lastReconciledStatus(), ""),
                  s.totalReconciliations() == null ? 0 : s.totalReconciliations(),
                  metadata.getOrDefault("revision", ""),
                  metadata.getOrDefault("originRevision", ""),
                  Objects.toString(s.digest(), ""),
                  Objects.toString(s.firstReconciled(), ""),
                  Objects.toString(s.lastReconciled(), ""),
                  Objects.toString(s.lastReconciledDuration(), ""));
            })
        .toList();
  }

  private List<Details.EventLine> events(Kustomization ks) {
    return client
        .v1()
        .events()
        .inNamespace(ks.getMetadata().getNamespace())
        .withField("involvedObject.name", ks.getMetadata().getName())
        .withField("involvedObject.kind", "Kustomization")
        .list()
        .getItems()
        .stream()
        .sorted(Comparator.comparing(DetailsReader::lastSeen).reversed())
        .limit(MAX_EVENTS)
        .map(
            e ->
                new Details.EventLine(
                    e.getType(),
                    e.getReason(),
                    e.getMessage(),
                    e.getCount() == null ? 1 : e.getCount(),
                    lastSeen(e)))
        .toList();
  }

  private static String lastSeen(Event e) {
    if (e.getLastTimestamp() != null) {
      return e.getLastTimestamp();
    }
    if (e.getEventTime() != null && e.getEventTime().getTime() != null) {
      return e.getEventTime().getTime();
    }
    return e.getMetadata().getCreationTimestamp() == null
        ? ""
        : e.getMetadata().getCreationTimestamp();
  }

  private Details.Source source(Kustomization ks) {
    SourceReference ref = ks.getSpec() == null ? null : ks.getSpec().sourceRef();
    if (ref == null || ref.name() == null) {
      return new Details.Source("", "", "", "", "no spec.sourceRef");
    }
    String ns =
        ref.namespace() == null || ref.namespace().isEmpty()
            ? ks.getMetadata().getNamespace()
            : ref.namespace();
    Optional<String> revision = sourceRevision(ref.kind(), ns, ref.name());
    String note =
        ref.kind() == SourceReference.SourceKind.ExternalArtifact
            ? "an ExternalArtifact: the view does not watch them; its status names the artifact"
            : revision.isEmpty()
                ? "the source is not visible to you or does not exist"
                : switch (ref.kind()) {
                  case GitRepository ->
                      "the commit's author and message are read from Git when drift is computed";
                  case Bucket -> "the digest of the bucket's object index when it was listed";
                  default ->
                      "the artifact as the registry served it; its origin revision is on the"
                          + " source";
                };
    return new Details.Source(
        String.valueOf(ref.kind()), ns, ref.name(), revision.orElse(""), note);
  }

  /** The source's artifact revision (empty text without one); empty when it is not visible. */
  private Optional<String> sourceRevision(SourceReference.SourceKind kind, String ns, String name) {
    if (kind == null) {
      return Optional.empty();
    }
    return catalog
        .source(kind.name(), ns, name)
        .map(r -> Objects.requireNonNullElse(SourceStatus.revisionOf(r.getStatus()), ""));
  }
}
