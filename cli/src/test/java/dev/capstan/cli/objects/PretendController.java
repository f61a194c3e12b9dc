package dev.capstan.cli.objects;

import dev.capstan.api.common.ReconcileRequest;
import dev.capstan.api.kustomize.Kustomization;
import dev.capstan.api.kustomize.KustomizationStatus;
import dev.capstan.api.source.Artifact;
import dev.capstan.api.source.GitRepository;
import dev.capstan.api.source.GitRepositoryStatus;
import dev.capstan.api.source.HelmChart;
import dev.capstan.api.source.HelmChartStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Stands in for the controller in the CLI tests: whenever an object's reconcile request annotation
 * differs from its {@code status.lastHandledReconcileAt}, it writes the status a reconcile would
 * (Ready with the given status, reason and message) and echoes the request.
 */
final class PretendController implements AutoCloseable {
  private final KubernetesClient client;
  private final String namespace;
  private volatile String readyStatus = "True";
  private volatile String reason = "ReconciliationSucceeded";
  private volatile String message = "Applied revision: main@sha1:0123456789abcdef";
  private final SharedIndexInformer<Kustomization> kustomizations;
  private final SharedIndexInformer<GitRepository> repositories;
  private final SharedIndexInformer<HelmChart> charts;

  PretendController(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
    this.kustomizations =
        client
            .resources(Kustomization.class)
            .inNamespace(namespace)
            .inform(handler(this::handleKustomization));
    this.repositories =
        client
            .resources(GitRepository.class)
            .inNamespace(namespace)
            .inform(handler(this::handleRepository));
    this.charts =
        client.resources(HelmChart.class).inNamespace(namespace).inform(handler(this::handleChart));
  }

  /** What the following reconciles end with. */
  void willReport(String status, String reason, String message) {
    this.readyStatus = status;
    this.reason = reason;
    this.message = message;
  }

  static String requested(HasMetadata object) {
    return ReconcileRequest.requestedAt(object);
  }

  private void handleKustomization(Kustomization ks) {
    String token = requested(ks);
    KustomizationStatus old = ks.getStatus();
    if (token == null
        || ks.getSpec().suspended()
        || (old != null && token.equals(old.lastHandledReconcileAt()))) {
      return;
    }
    client
        .resources(Kustomization.class)
        .inNamespace(namespace)
        .withName(ks.getMetadata().getName())
        .editStatus(
            k -> {
              k.setStatus(
                  new KustomizationStatus(
                      k.getMetadata().getGeneration(),
                      List.of(ready()),
                      "main@sha1:0123456789abcdef",
                      "main@sha1:0123456789abcdef",
                      token,
                      old == null ? null : old.inventory()));
              return k;
            });
  }

  private void handleRepository(GitRepository repo) {
    String token = requested(repo);
    GitRepositoryStatus old = repo.getStatus();
    if (token == null || (old != null && Objects.equals(token, old.lastHandledReconcileAt()))) {
      return;
    }
    client
        .resources(GitRepository.class)
        .inNamespace(namespace)
        .withName(repo.getMetadata().getName())
        .editStatus(
            r -> {
              r.setStatus(
                  new GitRepositoryStatus(
                      r.getMetadata().getGeneration(),
                      List.of(
                          new ConditionBuilder()
                              .withType("Ready")
                              .withStatus("True")
                              .withReason("Succeeded")
                              .withMessage("stored artifact")
                              .withLastTransitionTime(Instant.now().toString())
                              .build()),
                      new Artifact(
                          "main@sha1:fedcba9876543210",
                          "sha256:00",
                          "repo.tar.gz",
                          Instant.now().toString()),
                      token));
              return r;
            });
  }

  private void handleChart(HelmChart chart) {
    String token = requested(chart);
    HelmChartStatus old = chart.getStatus();
    if (token == null || (old != null && Objects.equals(token, old.lastHandledReconcileAt()))) {
      return;
    }
    client
        .resources(HelmChart.class)
        .inNamespace(namespace)
        .withName(chart.getMetadata().getName())
        .editStatus(
            c -> {
              c.setStatus(
                  new HelmChartStatus(
                      c.getMetadata().getGeneration(),
                      "main@sha1:fedcba9876543210",
                      "app",
                      null,
                      List.of(ready()),
                      new Artifact("0.1.0", "sha256:01", "app-0.1.0.tgz", Instant.now().toString()),
                      null,
                      token));
              return c;
            });
  }

  private Condition ready() {
    return new ConditionBuilder()
        .withType("Ready")
        .withStatus(readyStatus)
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime(Instant.now().toString())
        .build();
  }

  private static <T> ResourceEventHandler<T> handler(Consumer<T> onChange) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        onChange.accept(obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        onChange.accept(newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {}
    };
  }

  @Override
  public void close() {
    kustomizations.close();
    repositories.close();
    charts.close();
  }
}
